import type { CheckFinding, DiagnosisDraft, RootCause, Triage, Verdict } from '../schemas/index.ts';
import type { Resolution } from './citations.ts';
import { error, isUnder, warning } from './findings.ts';

/** The categories each verdict can have (shared/DESIGN.md "Root-cause categories"). */
const CATEGORIES: Readonly<Record<Verdict, readonly RootCause[]>> = {
  caused_by_change: ['code_regression', 'stale_test_expectation', 'fixture_or_mock'],
  flaky: ['flaky', 'fixture_or_mock'],
  pre_existing: ['pre_existing', 'fixture_or_mock'],
  environment: ['environment'],
  need_evidence: ['need_evidence'],
};

export function categoryFits(verdict: Verdict, category: RootCause): boolean {
  return CATEGORIES[verdict].includes(category);
}

/** The category a verdict gets when nothing finer is supported. */
export function defaultCategory(verdict: Verdict): RootCause {
  return CATEGORIES[verdict][0] as RootCause;
}

/** Citations that can overturn a deterministic verdict: run evidence, code or diff, and they must hold. */
const OVERTURNING = new Set(['evidence', 'code', 'diff']);

/** True when a why-claim cites evidence, code or diff that passed every check. */
export function overturnSupported(resolutions: readonly Resolution[]): boolean {
  return resolutions.some((r) => r.ok && isUnder(r.path, 'why') && OVERTURNING.has(r.citation.kind));
}

/**
 * The engine explains and refines the triage's verdict; it may replace it only on evidence
 * the checker accepts. Abstaining (`need_evidence`) overturns nothing — it claims less — and is
 * only noted. The category must fit the verdict, or a verdict change could hide in it (kept
 * `caused_by_change` but category `flaky`).
 */
export function checkVerdict(
  draft: DiagnosisDraft,
  triage: Triage,
  resolutions: readonly Resolution[],
): CheckFinding[] {
  const findings: CheckFinding[] = [];
  if (triage.verdict !== 'need_evidence' && draft.verdict !== triage.verdict) {
    if (draft.verdict === 'need_evidence') {
      findings.push(
        warning(
          'verdict_overturned',
          'verdict',
          `the signals say ${triage.verdict}; the diagnosis abstains instead`,
        ),
      );
    } else if (!overturnSupported(resolutions)) {
      findings.push(
        error(
          'verdict_overturned',
          'verdict',
          `the signals say ${triage.verdict}, the diagnosis says ${draft.verdict}, and no why-claim cites evidence, code or diff that holds`,
        ),
      );
    }
  }
  if (!categoryFits(draft.verdict, draft.category)) {
    findings.push(
      error(
        'category_mismatch',
        'category',
        `category ${draft.category} does not fit verdict ${draft.verdict}`,
      ),
    );
  }
  return findings;
}

/** The verdict that stands after the check: the triage's when the draft's was overturned without support. */
export function standingVerdict(
  draft: DiagnosisDraft,
  triage: Triage,
  findings: readonly CheckFinding[],
): Verdict {
  const rejected = findings.some(
    (f) => f.code === 'verdict_overturned' && f.severity === 'error' && f.path === 'verdict',
  );
  return rejected ? triage.verdict : draft.verdict;
}
