import type { DiagnosisContext } from '../../context/index.ts';
import type { Claim, MissingEvidence, RootCause, Triage, VerifiedLocation } from '../../schemas/index.ts';
import type { ReadingNotes, RootCauseChain } from '../../skill/index.ts';
import { isFixturePath, isTestPath } from './test-paths.ts';

const MAX_ALTERNATIVES = 3;

/**
 * Stage `root_cause`, as far as rules can go: what the report observed, where it surfaces, what
 * the change did there, and the deterministic signals. A rule engine cannot tell an intended
 * contract change from a regression; it says so through `alternatives` and missing evidence.
 */
export function buildChain(
  notes: ReadingNotes,
  chosen: VerifiedLocation | null,
  triage: Triage,
  ctx: DiagnosisContext,
): RootCauseChain {
  const chain: Claim[] = [...notes.observed.slice(0, 2), ...placeClaims(chosen), ...signalClaims(triage)];
  return {
    category: categoryOf(triage, chosen),
    chain,
    alternatives: triage.verdict === 'caused_by_change' ? otherChanges(chosen, ctx) : [],
    missing_evidence: missingFor(triage, chosen),
  };
}

function placeClaims(chosen: VerifiedLocation | null): Claim[] {
  if (chosen === null || chosen.file === null) return [];
  const claims: Claim[] = [];
  const span = chosen.level === 'line' ? chosen.lines : (chosen.function?.lines ?? null);
  if (span !== null) {
    const fn = chosen.function === null ? '' : ` in ${chosen.function.name}`;
    claims.push({
      text: `the failure surfaces in ${chosen.file}${fn}, lines ${span.start}-${span.end} at the revision`,
      cites: [{ kind: 'code', file: chosen.file, lines: span }],
    });
  }
  const changed = chosen.diff_impact.changed_lines[0];
  if (
    changed !== undefined &&
    (chosen.diff_impact.kind === 'in_hunk' || chosen.diff_impact.kind === 'in_function')
  ) {
    const where = chosen.diff_impact.kind === 'in_hunk' ? 'these lines' : 'the same function';
    claims.push({
      text: `this change modified ${where}: ${chosen.file} lines ${changed.start}-${changed.end}`,
      cites: [{ kind: 'diff', file: chosen.file, lines: changed }],
    });
  }
  return claims;
}

function signalClaims(triage: Triage): Claim[] {
  return triage.signals
    .filter((s) => s.kind !== 'diff_impact')
    .map((s) => ({
      text: s.detail,
      cites: [{ kind: 'signal' as const, name: s.kind, detail: s.detail }, ...s.cites],
    }));
}

function categoryOf(triage: Triage, chosen: VerifiedLocation | null): RootCause {
  if (triage.verdict !== 'caused_by_change' || chosen?.file == null) return triage.category;
  if (isFixturePath(chosen.file)) return 'fixture_or_mock';
  return triage.category;
}

/** Production files the change touched off the failing frame's file: where the deviation may start instead. */
function otherChanges(chosen: VerifiedLocation | null, ctx: DiagnosisContext): Claim[] {
  return ctx.diff
    .filter((f) => f.newPath !== null && f.newPath !== chosen?.file && !isTestPath(f.newPath))
    .slice(0, MAX_ALTERNATIVES)
    .flatMap((f) => {
      const hunk = f.hunks.find((h) => h.newLines > 0);
      const path = f.newPath as string;
      const lines =
        hunk === undefined ? undefined : { start: hunk.newStart, end: hunk.newStart + hunk.newLines - 1 };
      return [
        {
          text: `the change also modified ${path}; if the failing path reads what it produces, the deviation starts there`,
          cites: [{ kind: 'diff' as const, file: path, ...(lines === undefined ? {} : { lines }) }],
        },
      ];
    });
}

function missingFor(triage: Triage, chosen: VerifiedLocation | null): MissingEvidence[] {
  switch (triage.verdict) {
    case 'need_evidence':
      return [
        chosen === null
          ? {
              what: 'the source of the failing frame at this revision (the reported path was not found)',
              who: 'change_owner',
            }
          : { what: 'whether the failing path depends on what this change modified', who: 'change_owner' },
      ];
    case 'environment':
      return [
        {
          what: 'confirmation that the services and resources the test needs were available on the CI runner',
          who: 'infra',
        },
      ];
    case 'flaky':
      return [{ what: 'a re-run of this test on the same revision, alone and in suite order', who: 'qa' }];
    case 'pre_existing':
      return [{ what: 'the owner of the failing test on the target branch', who: 'test_owner' }];
    default:
      return [];
  }
}
