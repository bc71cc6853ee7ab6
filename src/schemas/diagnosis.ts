import { z } from 'zod';
import { ConfidenceLevel, LineRange } from './located.ts';

/** The first question of every diagnosis: did this change introduce the failure? */
export const Verdict = z.enum(['caused_by_change', 'pre_existing', 'flaky', 'environment', 'need_evidence']);
export type Verdict = z.infer<typeof Verdict>;

/** Root-cause categories of shared/DESIGN.md, each with the evidence it needs. */
export const RootCause = z.enum([
  'code_regression',
  'stale_test_expectation',
  'fixture_or_mock',
  'environment',
  'flaky',
  'pre_existing',
  'need_evidence',
]);
export type RootCause = z.infer<typeof RootCause>;

/**
 * What a claim rests on. Each kind is something the evidence checker can resolve: an evidence
 * store item (optionally a line range and a verbatim quote), a fact of the facts JSON, code or
 * diff at the revision, or a deterministic signal (pre-existing, flaky, environment…).
 */
export const Citation = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('evidence'),
    id: z.string().min(1),
    lines: LineRange.optional(),
    quote: z.string().optional(),
  }),
  z.object({ kind: z.literal('fact'), issue_id: z.string(), index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('code'), file: z.string(), lines: LineRange }),
  z.object({ kind: z.literal('diff'), file: z.string(), lines: LineRange.optional() }),
  z.object({ kind: z.literal('signal'), name: z.string(), detail: z.string() }),
]);
export type Citation = z.infer<typeof Citation>;

/** One statement of a diagnosis and what supports it. */
export const Claim = z.object({ text: z.string().min(1), cites: z.array(Citation) });
export type Claim = z.infer<typeof Claim>;

/** Where to look, at the confidence the location gate granted (never more). */
export const DiagnosisPlace = z.object({
  level: ConfidenceLevel,
  file: z.string().nullable(),
  function: z.string().nullable(),
  lines: LineRange.nullable(),
});
export type DiagnosisPlace = z.infer<typeof DiagnosisPlace>;

/** What should change: production code, the test, its data or mocks, the environment — or nothing yet. */
export const ChangeTarget = z.enum(['code', 'test', 'test_data', 'environment', 'none', 'undecided']);
export type ChangeTarget = z.infer<typeof ChangeTarget>;

export const ChangeAdvice = z.object({
  target: ChangeTarget,
  file: z.string().nullable(),
  function: z.string().nullable(),
  advice: Claim,
});
export type ChangeAdvice = z.infer<typeof ChangeAdvice>;

/** Lines 1-based, characters 0-based, end exclusive (Gerrit's comment range convention). */
export const TextRange = z.object({
  start_line: z.number().int().positive(),
  start_character: z.number().int().nonnegative(),
  end_line: z.number().int().positive(),
  end_character: z.number().int().nonnegative(),
});
export type TextRange = z.infer<typeof TextRange>;

export const Replacement = z.object({ path: z.string().min(1), range: TextRange, replacement: z.string() });
export type Replacement = z.infer<typeof Replacement>;

/**
 * A concrete edit that was applied and re-tested. Only such fixes become Gerrit fix
 * suggestions: an unverified edit stays prose in `change.advice`.
 */
export const VerifiedFix = z.object({
  description: z.string().min(1),
  replacements: z.array(Replacement).min(1),
  verification: z.object({
    command: z.string().min(1),
    outcome: z.literal('passed'),
    /** Evidence store id of the run's output. */
    evidence: z.string().min(1),
  }),
});
export type VerifiedFix = z.infer<typeof VerifiedFix>;

/** What would decide an open question, and who can provide it. */
export const MissingEvidence = z.object({
  what: z.string().min(1),
  who: z.enum(['change_owner', 'qa', 'ci_admin', 'infra', 'test_owner']),
});
export type MissingEvidence = z.infer<typeof MissingEvidence>;

export const FailureDiagnosis = z.object({
  /** The facts JSON issue this diagnoses. */
  issue_id: z.string(),
  test: z.string(),
  /** The report's own page for this failure. */
  report_url: z.string().nullable(),
  verdict: Verdict,
  category: RootCause,
  place: DiagnosisPlace,
  /** The causal chain in order, ending at the earliest deviation found. */
  why: z.array(Claim),
  change: ChangeAdvice.nullable(),
  fix: VerifiedFix.nullable(),
  /** Commands or tests that show the fix works. */
  verify: z.array(z.string()),
  missing_evidence: z.array(MissingEvidence),
  /** Other explanations still standing when the evidence cannot pick one. */
  alternatives: z.array(Claim),
});
export type FailureDiagnosis = z.infer<typeof FailureDiagnosis>;

export const DiagnosisEngine = z.object({
  name: z.enum(['rules', 'model']),
  model: z.string().nullable(),
  /** e.g. "no model key configured: built-in rules engine". */
  note: z.string().nullable(),
});
export type DiagnosisEngine = z.infer<typeof DiagnosisEngine>;

/** The diagnosis of one CI run of one patchset: what the publisher posts and the page shows. */
export const DiagnosisRun = z.object({
  schema_version: z.literal(1),
  run_id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, . _ - (at most 64)'),
  change: z.object({
    project: z.string().min(1),
    number: z.number().int().positive(),
    patchset: z.number().int().positive(),
    revision: z.string().regex(/^[0-9a-f]{40}$/, 'a full commit sha'),
  }),
  /** The CI's report, as handed over. */
  report_url: z.string().nullable(),
  /** Our report page for this run. */
  page_url: z.string().nullable(),
  engine: DiagnosisEngine,
  created_at: z.string(),
  failures: z.array(FailureDiagnosis),
});
export type DiagnosisRun = z.infer<typeof DiagnosisRun>;
