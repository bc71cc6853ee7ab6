import type { FileDiff } from '../git/index.ts';
import type { Citation, Issue, Signal } from '../schemas/index.ts';
import { historyCite, MAX_HISTORY_CITES, type SignatureHistory } from './history.ts';
import { changedTestFiles } from './impact.ts';
import { testKeyOf } from './signature.ts';
import { factCite } from './text.ts';

export interface FlakyFinding {
  /**
   * `retry_passed`: another attempt in this run passed. `history_flip`: another run at this
   * revision passed. `report_flag`: the report itself marks the test flaky (from its history).
   * `state_leak`: a uniqueness error on a path the change does not touch — data left by an
   * earlier test or run (src/signals/state-leak.ts).
   */
  basis: 'retry_passed' | 'history_flip' | 'report_flag' | 'state_leak';
  signal: Signal;
}

export interface FlakyDeps {
  signatures: SignatureHistory | null;
  project: string;
  runId: string;
  revision: string;
}

/** Flaky signals: passed on a retry in this run, flips pass/fail at this revision, flagged by the report. */
export function flakyFindings(issue: Issue, deps: FlakyDeps): FlakyFinding[] {
  return [...retryFindings(issue), ...reportFlag(issue), ...historyFlip(issue, deps)];
}

export function flakySignals(issue: Issue, deps: FlakyDeps): Signal[] {
  return flakyFindings(issue, deps).map((f) => f.signal);
}

/** The scraper writes each earlier attempt as a `retry` fact: `passed`, or `failed: <message>`. */
function retryFindings(issue: Issue): FlakyFinding[] {
  const passed = issue.facts.flatMap((f, i) => (f.type === 'retry' && /^passed\b/i.test(f.value) ? [i] : []));
  if (passed.length === 0) return [];
  const attempts = issue.facts.filter((f) => f.type === 'retry').length + 1;
  return [
    {
      basis: 'retry_passed',
      signal: {
        kind: 'flaky',
        detail: `passed on ${passed.length} of ${attempts} attempts in this run: the same code both passed and failed`,
        cites: passed.map((i) => factCite(issue, i)),
      },
    },
  ];
}

function reportFlag(issue: Issue): FlakyFinding[] {
  const index = issue.facts.findIndex((f) => f.type === 'flaky');
  if (index === -1) return [];
  return [
    {
      basis: 'report_flag',
      signal: { kind: 'flaky', detail: 'the report marks this test flaky', cites: [factCite(issue, index)] },
    },
  ];
}

function historyFlip(issue: Issue, deps: FlakyDeps): FlakyFinding[] {
  if (deps.signatures === null) return [];
  const outcomes = deps.signatures
    .outcomesAt({ project: deps.project, test_key: testKeyOf(issue), revision: deps.revision })
    .filter((o) => o.run_id !== deps.runId);
  const passed = outcomes.filter((o) => o.outcome === 'passed');
  if (passed.length === 0) return [];
  const failedElsewhere = outcomes.length - passed.length;
  const cites: Citation[] = [
    ...passed.slice(0, MAX_HISTORY_CITES),
    ...outcomes.filter((o) => o.outcome === 'failed').slice(0, 1),
  ].map(historyCite);
  return [
    {
      basis: 'history_flip',
      signal: {
        kind: 'flaky',
        detail: `at revision ${deps.revision.slice(0, 12)} this test passed in ${passed.length} other run(s) and failed in ${
          failedElsewhere + 1
        } (this one included)`,
        cites,
      },
    },
  ];
}

/** Frames a no-diff-link signal cites (the rest are counted in its detail). */
const MAX_FRAME_CITES = 5;

/**
 * The failing test ran none of the changed code, as far as the stack tells: every located
 * project frame is untouched by the diff, no unlocated frame shares a name with a changed file,
 * and the test's own file is unchanged. Weaker than flaky: a failure can come from data or
 * configuration the change altered, or from code the stack does not show (a callback that
 * returned a wrong value leaves no frame) — so it only ever supports a verdict.
 */
export function noDiffLinkSignals(issue: Issue, ctx: { diff: readonly FileDiff[] }): Signal[] {
  const candidates = issue.candidates ?? [];
  if (ctx.diff.length === 0 || candidates.length === 0) return [];
  if (!candidates.every((c) => c.file !== null && c.diff_impact.kind === 'untouched')) return [];
  const changed = ctx.diff.flatMap((d) => [d.newPath, d.oldPath]).filter((p): p is string => p !== null);
  const changedNames = new Set(changed.map(baseName));
  const project = issue.locations.filter((l) => !l.library);
  if (project.some((l) => changedNames.has(baseName(l.file)))) return [];
  if (changedTestFiles(issue, ctx.diff).length > 0) return [];
  const cites: Citation[] = candidates
    .filter((c) => c.lines !== null)
    .slice(0, MAX_FRAME_CITES)
    .map((c) => ({ kind: 'code', file: c.file as string, lines: c.lines as NonNullable<typeof c.lines> }));
  const files = [...new Set(ctx.diff.map((d) => d.newPath ?? d.oldPath))].filter((p) => p !== null);
  return [
    {
      kind: 'no_diff_link',
      detail: `none of the ${candidates.length} located project frame(s) nor the test's file is among the ${files.length} file(s) this change modifies (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})`,
      cites,
    },
  ];
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
