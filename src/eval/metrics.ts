import { claimsOf } from '../check/index.ts';
import type { CheckFinding, DiagnosisDraft, FailureDiagnosis, LineRange } from '../schemas/index.ts';
import type { CorpusCase } from './case.ts';

/** What a case's truth says (read only here, to score). */
export type Truth = CorpusCase['truth'];
export type TruthLocation = Truth['locations'][number];

/** Verdicts that say "not this change": a wrong one on a caused_by_change failure exonerates it. */
const EXONERATING = new Set(['pre_existing', 'flaky', 'environment']);

/** Claims of a draft the checker could or could not tie to evidence (README "unsupported-claim ratio"). */
export interface ClaimSupport {
  claims: number;
  unsupported: number;
}

/** One failure's diagnosis against its case's truth; `null` = not counted for that metric. */
export interface FailureScore {
  verdict: boolean;
  category: boolean;
  /** Only when the truth has a wrongly exonerable verdict (caused_by_change). */
  wronglyExonerated: boolean | null;
  /** Only when the truth has locations. */
  file: boolean | null;
  /** Only when the truth has locations; true only for a `line` place overlapping a truth location. */
  line: boolean | null;
  /** Only for `line` places: true when the lines overlap no truth location. */
  falsePrecise: boolean | null;
  complete: boolean;
}

/** The checker's view of one failure: its first draft and findings, and the final output re-checked. */
export interface CheckRecord {
  before: ClaimSupport;
  after: ClaimSupport;
}

function overlaps(a: LineRange, b: readonly [number, number]): boolean {
  return a.start <= b[1] && b[0] <= a.end;
}

/** A `line` place whose lines overlap a truth location's lines in the same file. */
export function isLineHit(place: FailureDiagnosis['place'], locations: readonly TruthLocation[]): boolean {
  if (place.level !== 'line' || place.file === null || place.lines === null) return false;
  const { file, lines } = place;
  return locations.some((l) => l.file === file && overlaps(lines, l.lines));
}

/** The place's file is one of the truth's files (any level that names a file). */
export function isFileHit(place: FailureDiagnosis['place'], locations: readonly TruthLocation[]): boolean {
  return place.file !== null && locations.some((l) => l.file === place.file);
}

/**
 * Every field filled or explicitly unknown: a verdict and category (need_evidence is an explicit
 * unknown), a place (a file, or level need_evidence), at least one why-claim, a change or
 * missing evidence, and verify steps or missing evidence.
 */
export function isComplete(d: FailureDiagnosis): boolean {
  const missing = d.missing_evidence.length > 0;
  const place = d.place.level === 'need_evidence' || d.place.file !== null;
  return (
    d.verdict.length > 0 &&
    d.category.length > 0 &&
    place &&
    d.why.length > 0 &&
    (d.change !== null || missing) &&
    (d.verify.length > 0 || missing)
  );
}

export function scoreFailure(d: FailureDiagnosis, truth: Truth): FailureScore {
  const located = truth.locations.length > 0;
  const lineClaim = d.place.level === 'line' && d.place.file !== null && d.place.lines !== null;
  const lineHit = isLineHit(d.place, truth.locations);
  return {
    verdict: d.verdict === truth.verdict,
    category: d.category === truth.category,
    wronglyExonerated: truth.verdict === 'caused_by_change' ? EXONERATING.has(d.verdict) : null,
    file: located ? isFileHit(d.place, truth.locations) : null,
    line: located ? lineHit : null,
    falsePrecise: lineClaim ? !lineHit : null,
    complete: isComplete(d),
  };
}

/**
 * A claim is unsupported when the checker rejects it with an error: on the claim itself (e.g.
 * `uncited_claim` at `why.0`), or on every one of its citations (`why.0.cites.N`). A claim with
 * at least one citation that held is supported (the degrade keeps it with that citation).
 */
export function claimSupport(
  draft: Pick<DiagnosisDraft, 'why' | 'change' | 'alternatives'>,
  findings: readonly CheckFinding[],
): ClaimSupport {
  const failed = new Set(findings.filter((f) => f.severity === 'error').map((f) => f.path));
  let unsupported = 0;
  const claims = claimsOf(draft);
  for (const { path, claim } of claims) {
    const citesFailed =
      claim.cites.length > 0 && claim.cites.every((_, j) => failed.has(`${path}.cites.${j}`));
    if (failed.has(path) || claim.cites.length === 0 || citesFailed) unsupported++;
  }
  return { claims: claims.length, unsupported };
}

/** Nearest-rank percentile; null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

/** A share in percent of the counted (non-null) values; null when none was counted. */
export function share(values: ReadonlyArray<boolean | null>): number | null {
  const counted = values.filter((v): v is boolean => v !== null);
  if (counted.length === 0) return null;
  return (100 * counted.filter(Boolean).length) / counted.length;
}

/** One scored case, as `aggregate` reads it. */
export interface ScoredCase {
  ms: number;
  tokens: number;
  scores: FailureScore[];
  checks: CheckRecord[];
}

/** The metrics of one engine/ablation row; percentages (0–100) or null when nothing was counted. */
export interface Metrics {
  cases: number;
  failures: number;
  verdict: number | null;
  wrongly_exonerated: number | null;
  category: number | null;
  file_top1: number | null;
  line: number | null;
  false_precise: number | null;
  completeness: number | null;
  unsupported_before: number | null;
  unsupported_after: number | null;
  time_p50_ms: number | null;
  tokens: number;
  tokens_per_case: number | null;
}

function ratio(parts: readonly ClaimSupport[]): number | null {
  const claims = parts.reduce((n, p) => n + p.claims, 0);
  const unsupported = parts.reduce((n, p) => n + p.unsupported, 0);
  return claims === 0 ? null : (100 * unsupported) / claims;
}

/** Failure-level metrics pooled over every failure of every case; time and tokens per case. */
export function aggregate(cases: readonly ScoredCase[]): Metrics {
  const scores = cases.flatMap((c) => c.scores);
  const checks = cases.flatMap((c) => c.checks);
  const tokens = cases.reduce((n, c) => n + c.tokens, 0);
  return {
    cases: cases.length,
    failures: scores.length,
    verdict: share(scores.map((s) => s.verdict)),
    wrongly_exonerated: share(scores.map((s) => s.wronglyExonerated)),
    category: share(scores.map((s) => s.category)),
    file_top1: share(scores.map((s) => s.file)),
    line: share(scores.map((s) => s.line)),
    false_precise: share(scores.map((s) => s.falsePrecise)),
    completeness: share(scores.map((s) => s.complete)),
    unsupported_before: ratio(checks.map((c) => c.before)),
    unsupported_after: ratio(checks.map((c) => c.after)),
    time_p50_ms: percentile(
      cases.map((c) => c.ms),
      50,
    ),
    tokens,
    tokens_per_case: cases.length === 0 ? null : tokens / cases.length,
  };
}
