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

/** The fix plan: where, why there, how, what else it touches. */
export const ChangeAdvice = z.object({
  target: ChangeTarget,
  file: z.string().nullable(),
  function: z.string().nullable(),
  /** How to change it. */
  advice: Claim,
  /** Why this place and not another (e.g. the earliest deviation is here). */
  rationale: Claim.nullable().default(null),
  /** Other modules or callers the change affects. */
  impact: z.array(z.string()).default([]),
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

/** A deterministic signal (no model): what it says and what it rests on. */
export const Signal = z.object({
  kind: z.enum(['pre_existing', 'flaky', 'environment', 'build_channel', 'diff_impact', 'no_diff_link']),
  detail: z.string(),
  cites: z.array(Citation),
});
export type Signal = z.infer<typeof Signal>;

/**
 * The verdict from deterministic signals alone. The engine explains and refines it; it may not
 * overturn it without citing evidence the checker accepts.
 */
export const Triage = z.object({
  verdict: Verdict,
  category: RootCause,
  channel: z.enum(['build', 'test']),
  signals: z.array(Signal),
  /** Failure signature (normalised reason + test id), for history lookups. */
  signature: z.string(),
});
export type Triage = z.infer<typeof Triage>;

export const FindingCode = z.enum([
  'uncited_claim',
  'evidence_not_found',
  'quote_not_in_evidence',
  'fact_not_found',
  'file_not_at_revision',
  'lines_out_of_range',
  'function_not_found',
  'diff_not_in_change',
  'line_not_granted',
  'ci_greening_advice',
  'code_fix_for_environment',
  'verdict_overturned',
  'category_mismatch',
  'signal_not_found',
  'instruction_in_evidence',
  'budget_exhausted',
  'schema_invalid',
]);
export type FindingCode = z.infer<typeof FindingCode>;

/** One thing the evidence checker found; `path` points into the failure diagnosis (e.g. `why.1.cites.0`). */
export const CheckFinding = z.object({
  code: FindingCode,
  severity: z.enum(['error', 'warning']),
  path: z.string(),
  message: z.string(),
});
export type CheckFinding = z.infer<typeof CheckFinding>;

export const CheckReport = z.object({
  findings: z.array(CheckFinding),
  /** Rounds in which the engine was asked to repair its diagnosis. */
  repair_rounds: z.number().int().nonnegative(),
  /** True when the diagnosis was degraded (place lowered, claims dropped, or to need_evidence). */
  degraded: z.boolean(),
});
export type CheckReport = z.infer<typeof CheckReport>;

export const Usage = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cache_read_input_tokens: z.number().int().nonnegative(),
  cache_creation_input_tokens: z.number().int().nonnegative(),
  tool_calls: z.number().int().nonnegative(),
  latency_ms: z.number().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

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
  /** The deterministic verdict the diagnosis started from (absent in diagnoses made elsewhere). */
  triage: Triage.optional(),
  check: CheckReport.optional(),
  usage: Usage.optional(),
});
export type FailureDiagnosis = z.infer<typeof FailureDiagnosis>;

export const DiagnosisEngine = z.object({
  name: z.enum(['rules', 'model']),
  model: z.string().nullable(),
  /** e.g. "no model key configured" (rules), or which failures the rules took over from the model. */
  note: z.string().nullable(),
});
export type DiagnosisEngine = z.infer<typeof DiagnosisEngine>;

/** The diagnosis of one CI run of one patchset: what the publisher posts and the page shows. */
export const DiagnosisRun = z.object({
  schema_version: z.literal(1),
  run_id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits, . _ - (at most 64)'),
  /** Project, change and patchset are null for a run diagnosed outside Gerrit (CLI on a local repo). */
  change: z.object({
    project: z.string().min(1).nullable(),
    number: z.number().int().positive().nullable(),
    patchset: z.number().int().positive().nullable(),
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

/** What an engine (model or rules) proposes for one failure, before the checker. */
export const DiagnosisDraft = FailureDiagnosis.omit({ triage: true, check: true, usage: true });
export type DiagnosisDraft = z.infer<typeof DiagnosisDraft>;
