import type { DiagnosisContext } from '../../context/index.ts';
import type {
  Citation,
  Claim,
  MissingEvidence,
  RootCause,
  Triage,
  VerifiedLocation,
} from '../../schemas/index.ts';
import { messageNaming, type TargetedSignal } from '../../signals/index.ts';
import type { ReadingNotes, RootCauseChain } from '../../skill/index.ts';
import { showLines } from '../../util/text-range.ts';
import type { Focus } from './place.ts';
import { isFixturePath, isTestPath } from './test-paths.ts';

const MAX_ALTERNATIVES = 3;

/**
 * Stage `root_cause`, as far as rules can go: what the report observed, where it surfaces, what
 * the change did there, and the deterministic signals; when a signal moved the place off the
 * stack, the chain ends with what it points at (the earliest deviation found). A rule engine
 * cannot be sure an intended contract change is not a regression, or the reverse: it says so
 * through `alternatives` and missing evidence.
 */
export function buildChain(
  notes: ReadingNotes,
  focus: Focus,
  triage: Triage,
  ctx: DiagnosisContext,
): RootCauseChain {
  const chosen = focus.candidate;
  if (focus.target !== null) return targetChain(notes, focus, triage, ctx);
  const chain: Claim[] = [...notes.observed.slice(0, 2), ...placeClaims(chosen), ...signalClaims(triage)];
  return {
    category: categoryOf(triage, chosen?.file ?? null),
    chain,
    alternatives: triage.verdict === 'caused_by_change' ? otherChanges([chosen?.file ?? null], ctx) : [],
    missing_evidence: missingFor(triage, chosen),
  };
}

function targetChain(
  notes: ReadingNotes,
  focus: Focus,
  triage: Triage,
  ctx: DiagnosisContext,
): RootCauseChain {
  const t = focus.target as TargetedSignal;
  const chain: Claim[] = [
    ...notes.observed.slice(0, 2),
    ...surfaces(focus.surface),
    ...signalClaims(triage).filter((c) => c.text !== t.signal.detail),
    signalClaim(t),
    deviation(focus),
  ];
  return {
    category: categoryOf(triage, t.target.file),
    chain,
    alternatives: alternativesFor(focus, triage, ctx).slice(0, MAX_ALTERNATIVES + focus.others.length),
    // A fixture target says which re-run decides; the generic flaky re-run would repeat it.
    missing_evidence:
      focus.role === 'fixture'
        ? targetMissing(focus)
        : [...missingFor(triage, focus.candidate), ...targetMissing(focus)],
  };
}

function surfaces(chosen: VerifiedLocation | null): Claim[] {
  return placeClaims(chosen).filter((c) => c.cites.every((x) => x.kind === 'code'));
}

function placeClaims(chosen: VerifiedLocation | null): Claim[] {
  if (chosen === null || chosen.file === null) return [];
  const claims: Claim[] = [];
  const span = chosen.level === 'line' ? chosen.lines : (chosen.function?.lines ?? null);
  if (span !== null) {
    const fn = chosen.function === null ? '' : ` in ${chosen.function.name}`;
    claims.push({
      text: `the failure surfaces in ${chosen.file}${fn}, ${showLines(span)} at the revision`,
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
      text: `this change modified ${where}: ${chosen.file} ${showLines(changed)}`,
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

/** The signal the place was taken from, as a claim citing it and everything it cites. */
function signalClaim(t: TargetedSignal): Claim {
  return {
    text: t.signal.detail,
    cites: [{ kind: 'signal', name: t.signal.kind, detail: t.signal.detail }, ...t.signal.cites],
  };
}

const of = (t: TargetedSignal, kind: Citation['kind']) => t.signal.cites.filter((c) => c.kind === kind);

/** The chain's last claim: the earliest deviation the signal points at, with what shows it. */
function deviation(focus: Focus): Claim {
  const t = focus.target as TargetedSignal;
  const { file, function: fn, lines } = t.target;
  const name = fn ?? file;
  const at = `${file} ${showLines(lines)}`;
  const diffs = of(t, 'diff');
  const code = of(t, 'code');
  switch (focus.role) {
    case 'changed_function': {
      const changed = diffs.flatMap((d) =>
        d.kind === 'diff' && d.lines !== undefined ? [showLines(d.lines)] : [],
      );
      const where =
        changed.length === 0
          ? at
          : `${file} ${changed.join(', ')}, in ${name}'s ${at.slice(file.length + 1)}`;
      return {
        text: `the earliest deviation found on the failing path: this change modified ${name} (${where}), which the path calls before the failure surfaces`,
        cites: [...diffs, t.cite],
      };
    }
    case 'stale_use':
      return {
        text: `the test still exercises the old contract: ${name} (${at}) uses a name this change dropped on purpose (its commit message says so), so the assertion checks behaviour the code no longer has`,
        cites: [...code, ...diffs, t.cite],
      };
    case 'fixture':
      return {
        text: `the failing test's data comes from ${name} (${at}): that is where it must be made fresh for every test and run`,
        cites: [...code.filter((c) => c.kind === 'code' && c.file === file), t.cite],
      };
    default:
      return {
        text: `the failing assertion checks what ${name} (${at}) returns; this change did not modify it`,
        cites: [...code, t.cite],
      };
  }
}

function alternativesFor(focus: Focus, triage: Triage, ctx: DiagnosisContext): Claim[] {
  const t = focus.target as TargetedSignal;
  const others = focus.others.map(
    (o): Claim => ({
      text: `the failing path also reaches ${o.target.function ?? o.target.file} (${o.target.file} ${showLines(o.target.lines)}); the deviation may start there instead`,
      cites: [...of(o, 'diff'), o.cite],
    }),
  );
  switch (focus.role) {
    case 'changed_function': {
      const named = t.target.function === null ? null : messageNaming(ctx.message, simple(t.target.function));
      const intended: Claim[] =
        named === null
          ? []
          : [
              {
                text: `the commit message describes this change to ${t.target.function} as deliberate ("${clip(named)}"); if the new behaviour is the intended contract, the test's expectation is what is stale (nothing shows the test still relies on a name the change dropped, so the rules keep code_regression)`,
                cites: [...of(t, 'diff'), t.cite],
              },
            ];
      const files = [t.target.file, ...focus.others.map((o) => o.target.file), focus.candidate?.file ?? null];
      return [...others, ...intended, ...otherChanges(files, ctx)];
    }
    case 'stale_use':
      return [
        ...others,
        {
          text: 'or the contract change itself is the regression (for clients that still use the old name, as the test does): then the changed production code must accept the old contract again, and the test stays',
          cites: of(t, 'diff'),
        },
      ];
    case 'fixture':
      return [
        ...others,
        {
          text: 'or a test that ran earlier in this same run created the record (test order, not a previous run): the fix is the same isolation in the fixture',
          cites: t.signal.cites.filter((c) => c.kind === 'fact' || c.kind === 'code').slice(0, 2),
        },
      ];
    default: {
      const test = focus.candidate;
      const testCite: Citation[] =
        test?.file != null && test.lines !== null
          ? [{ kind: 'code', file: test.file, lines: test.lines }]
          : of(t, 'code').slice(0, 1);
      return [
        ...others,
        {
          text: `or the test's expectation is what is wrong, not ${t.target.function ?? t.target.file}: the owner of the test on the target branch decides`,
          cites: testCite,
        },
        ...(triage.verdict === 'caused_by_change' ? otherChanges([t.target.file], ctx) : []),
      ];
    }
  }
}

function targetMissing(focus: Focus): MissingEvidence[] {
  switch (focus.role) {
    case 'stale_use':
      return [
        {
          what: "the change owner's confirmation that the contract change is intended (clients migrated), so the test is updated rather than the code",
          who: 'change_owner',
        },
      ];
    case 'fixture':
      return [
        {
          what: 'a re-run of this test on the same revision in a clean workspace (no data left from earlier runs): it should pass',
          who: 'qa',
        },
      ];
    default:
      return [];
  }
}

function categoryOf(triage: Triage, file: string | null): RootCause {
  if (triage.verdict !== 'caused_by_change' || file === null) return triage.category;
  if (isFixturePath(file)) return 'fixture_or_mock';
  return triage.category;
}

/** Production files the change touched besides those named: where the deviation may start instead. */
function otherChanges(named: ReadonlyArray<string | null>, ctx: DiagnosisContext): Claim[] {
  return ctx.diff
    .filter((f) => f.newPath !== null && !named.includes(f.newPath) && !isTestPath(f.newPath))
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

function simple(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function clip(text: string, max = 140): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
