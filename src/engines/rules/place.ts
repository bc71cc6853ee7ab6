import type { DiagnosisPlace, DiffImpact, Issue, Triage, VerifiedLocation } from '../../schemas/index.ts';
import { type TargetedSignal, type TargetRole, targetsIn } from '../../signals/index.ts';
import type { LocationConfirmation } from '../../skill/index.ts';
import { isTestPath } from './test-paths.ts';

const IMPACT_RANK: Record<DiffImpact['kind'], number> = {
  in_hunk: 0,
  in_function: 1,
  in_file: 2,
  untouched: 3,
  unknown: 3,
};
const LEVEL_RANK = { line: 0, function: 1, file: 2, need_evidence: 3 } as const;
const ROLE_RANK = { failure: 0, frame: 1, test: 2 } as const;

/**
 * Where the diagnosis points, and why there. `candidate` is the stack frame it starts from (the
 * place itself unless a signal's target moved it); `target` is the signal target the place was
 * taken from (a changed function the path calls, the test code still using a name the change
 * dropped, the fixture the data comes from, the function the assertion checks); `others` are
 * further targets of the same role, for the alternatives.
 */
export interface Focus {
  candidate: VerifiedLocation | null;
  /** The frame where the failure surfaces (the failure frame, else the chosen candidate). */
  surface: VerifiedLocation | null;
  role: TargetRole | null;
  target: TargetedSignal | null;
  others: TargetedSignal[];
}

/**
 * Stage `confirm_location`. First the best stack candidate, at the level the locator granted: a
 * candidate the change touched comes first (it is where "caused by this change" can be cited),
 * then the failing frame before the frames between and the test, then the better level.
 *
 * Then the triage's signals may move the place off the stack, to what they point at — never
 * above `function` level (a `line` needs the locator's grant, which only stack frames get):
 *
 * | verdict / category | place | unless |
 * | --- | --- | --- |
 * | caused_by_change / stale_test_expectation | the test code that still uses the name the change dropped on purpose (`stale_use`) | — |
 * | caused_by_change / code_regression | the changed function the path calls earliest (`changed_function`) | a production frame is itself on a line or in a function the change modified |
 * | flaky or any / fixture_or_mock | the fixture or setup the test's data comes from (`fixture`) | — |
 * | pre_existing | the function the failing assertion calls (`callee`, or a `changed_function`): the code under test | — |
 */
export function confirmPlace(
  issue: Issue,
  triage?: Triage,
): { confirmation: LocationConfirmation; chosen: VerifiedLocation | null; focus: Focus } {
  const chosen = bestCandidate(issue);
  const surface =
    (issue.candidates ?? []).find(
      (c) => c.reported.role === 'failure' && c.level !== 'need_evidence' && c.file !== null,
    ) ?? chosen;
  const focus = { ...(triage === undefined ? stackFocus(chosen) : focusOf(chosen, triage)), surface };
  if (focus.target !== null) {
    const { target } = focus.target;
    const place: DiagnosisPlace = {
      level: target.function === null ? 'file' : 'function',
      file: target.file,
      function: target.function,
      lines: target.function === null ? null : target.lines,
    };
    return { chosen, focus, confirmation: { place, reasons: targetReasons(focus) } };
  }
  if (chosen === null) {
    return {
      chosen,
      focus,
      confirmation: {
        place: { level: 'need_evidence', file: null, function: null, lines: null },
        reasons: ['no frame of this failure could be confirmed in the repository at the revision'],
      },
    };
  }
  const reasons = [
    `${chosen.reported.role} frame ${chosen.reported.frame_index} (${chosen.reported.file}${chosen.reported.line === null ? '' : `:${chosen.reported.line}`})`,
    `the locator granted ${chosen.level}`,
    `the change's impact there: ${chosen.diff_impact.kind.replace('_', ' ')}`,
  ];
  const place: DiagnosisPlace = {
    level: chosen.level,
    file: chosen.file,
    function: chosen.function?.name ?? null,
    lines: chosen.level === 'line' ? chosen.lines : null,
  };
  const surfaced = onlySurfaces(place, chosen, triage);
  if (surfaced !== place)
    reasons.push(
      `an environment failure only surfaces on ${showRange(chosen.lines)}: the place stays at ${surfaced.level} level`,
    );
  return { chosen, focus, confirmation: { place: surfaced, reasons } };
}

/**
 * An environment failure starts outside the code: the confirmed line is only where it surfaced,
 * and a line place would read as "change this line" (and become an inline comment). It stays at
 * the function (or the file).
 */
function onlySurfaces(place: DiagnosisPlace, chosen: VerifiedLocation, triage?: Triage): DiagnosisPlace {
  if (place.level !== 'line' || triage === undefined) return place;
  if (triage.verdict !== 'environment') return place;
  const fn = chosen.function;
  return fn === null
    ? { level: 'file', file: place.file, function: null, lines: null }
    : { level: 'function', file: place.file, function: fn.name, lines: fn.lines };
}

function showRange(lines: VerifiedLocation['lines']): string {
  if (lines === null) return 'its line';
  return lines.start === lines.end ? `line ${lines.start}` : `lines ${lines.start}-${lines.end}`;
}

function bestCandidate(issue: Issue): VerifiedLocation | null {
  const usable = (issue.candidates ?? []).filter((c) => c.level !== 'need_evidence' && c.file !== null);
  const ranked = [...usable].sort(
    (a, b) =>
      IMPACT_RANK[a.diff_impact.kind] - IMPACT_RANK[b.diff_impact.kind] ||
      ROLE_RANK[a.reported.role] - ROLE_RANK[b.reported.role] ||
      LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
      a.reported.frame_index - b.reported.frame_index,
  );
  return ranked[0] ?? null;
}

function stackFocus(candidate: VerifiedLocation | null): Focus {
  return { candidate, surface: candidate, role: null, target: null, others: [] };
}

function focusOf(chosen: VerifiedLocation | null, triage: Triage): Focus {
  const pick = (...roles: TargetRole[]): Focus => {
    for (const role of roles) {
      const all = uniqueTargets(targetsIn(triage.signals, role));
      const [first, ...others] = all;
      if (first !== undefined) return { candidate: chosen, surface: chosen, role, target: first, others };
    }
    return stackFocus(chosen);
  };
  if (triage.category === 'fixture_or_mock') return pick('fixture');
  switch (triage.verdict) {
    case 'caused_by_change':
      if (triage.category === 'stale_test_expectation') return pick('stale_use');
      return directHit(chosen) ? stackFocus(chosen) : pick('changed_function');
    case 'pre_existing':
      return pick('callee', 'changed_function');
    default:
      return stackFocus(chosen);
  }
}

/** A production frame on a line, or in a function, this change modified: the stack itself shows the deviation. */
function directHit(c: VerifiedLocation | null): boolean {
  return (
    c !== null &&
    c.file !== null &&
    !isTestPath(c.file) &&
    (c.diff_impact.kind === 'in_hunk' || c.diff_impact.kind === 'in_function')
  );
}

/** One entry per target place (several signals may point at the same function). */
function uniqueTargets(targets: readonly TargetedSignal[]): TargetedSignal[] {
  const seen = new Set<string>();
  return targets.filter((t) => {
    const key = `${t.target.file}#${t.target.function ?? ''}#${t.target.lines.start}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const ROLE_REASON: Record<TargetRole, string> = {
  changed_function: 'a function this change modified, called on the failing path (the earliest such call)',
  stale_use: 'test code that still uses what the change dropped on purpose',
  fixture: "the setup the failing test's data comes from",
  callee: 'the function the failing assertion checks (the code under test)',
};

function targetReasons(focus: Focus): string[] {
  const t = focus.target as TargetedSignal;
  const reasons = [
    `${ROLE_REASON[focus.role as TargetRole]}: ${t.target.function ?? t.target.file} (${t.target.file}:${t.target.lines.start}-${t.target.lines.end})`,
    "taken from the triage's signal, at function level: the parser finds it; a line needs the locator's grant",
  ];
  const c = focus.surface;
  if (c !== null)
    reasons.push(
      `the failure surfaces at ${c.reported.role} frame ${c.reported.frame_index} (${c.reported.file}${c.reported.line === null ? '' : `:${c.reported.line}`})`,
    );
  if (focus.others.length > 0)
    reasons.push(
      `also pointed at (kept as alternatives): ${focus.others.map((o) => o.target.function ?? o.target.file).join(', ')}`,
    );
  return reasons;
}
