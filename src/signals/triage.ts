import type { DiagnosisContext } from '../context/index.ts';
import type { Issue, RootCause, Signal, Triage, Verdict } from '../schemas/index.ts';
import { callLinks } from './calls.ts';
import { channelOf, channelSignals } from './channel.ts';
import { type EnvironmentFinding, environmentFindings } from './environment.ts';
import { type FlakyFinding, flakyFindings, noDiffLinkSignals } from './flaky.ts';
import type { SignatureHistory } from './history.ts';
import { contractLinks, type DiffLink, diffLinks } from './impact.ts';
import { intentLinks } from './intent.ts';
import { type PreExistingFinding, preExistingFindings } from './pre-existing.ts';
import { failureSignature, type Mask } from './signature.ts';
import { stateLeakFindings } from './state-leak.ts';

export interface TriageDeps {
  /** Signature history; null when none is kept (pre-existing and flips are then not known). */
  signatures: SignatureHistory | null;
  masks: readonly Mask[];
  project: string;
  /** The change's target branch (or the branch a mainline run built). */
  branch: string;
  /** Gerrit change number; null for a mainline run. */
  change: number | null;
  runId: string;
}

/** Everything the detectors found for one failure, typed so the precedence can weigh it. */
export interface TriageInputs {
  channel: Triage['channel'];
  category: Issue['category'];
  links: readonly DiffLink[];
  environment: readonly EnvironmentFinding[];
  flaky: readonly FlakyFinding[];
  preExisting: readonly PreExistingFinding[];
  /** build_channel and no_diff_link: listed, never deciding on their own. */
  other: readonly Signal[];
}

/** Which precedence row decided, for tests and for the engine's prompt. */
export type TriageRule =
  | 'mainline_history'
  | 'diff_link'
  | 'environment'
  | 'flaky'
  | 'other_changes_history'
  | 'undecided';

export interface Decision {
  verdict: Verdict;
  category: RootCause;
  rule: TriageRule;
  /** The signals the verdict rests on (listed first in the triage). */
  deciding: Signal[];
}

/**
 * The deterministic verdict for one failure: runs every detector, then `decide`. All signals
 * are kept, the deciding ones first, so a verdict that overrules a signal still shows it.
 */
export async function triageIssue(issue: Issue, ctx: DiagnosisContext, deps: TriageDeps): Promise<Triage> {
  const inputs = await gatherInputs(issue, ctx, deps);
  const decision = decide(inputs);
  const all = [
    ...inputs.preExisting.map((f) => f.signal),
    ...inputs.links.map((l) => l.signal),
    ...inputs.environment.map((f) => f.signal),
    ...inputs.flaky.map((f) => f.signal),
    ...inputs.other,
  ];
  return {
    verdict: decision.verdict,
    category: decision.category,
    channel: inputs.channel,
    signals: [...decision.deciding, ...all.filter((s) => !decision.deciding.includes(s))],
    signature: failureSignature(issue, deps.masks),
  };
}

export async function gatherInputs(
  issue: Issue,
  ctx: DiagnosisContext,
  deps: TriageDeps,
): Promise<TriageInputs> {
  const signature = failureSignature(issue, deps.masks);
  const environment = await environmentFindings(issue, ctx.evidence);
  const dependencyFailure = environment.some((f) => f.problem === 'dependency_download');
  const calls = await callLinks(issue, ctx);
  const links = [
    ...diffLinks(issue, ctx.diff, { dependencyFailure }),
    ...(await contractLinks(issue, ctx)),
    ...calls.links,
    ...(await intentLinks(issue, ctx)),
  ];
  // "The test ran none of the changed code" is only said when no link at all says otherwise.
  const noDiffLink = links.length === 0 ? noDiffLinkSignals(issue, ctx) : [];
  const leaks = await stateLeakFindings(issue, ctx, noDiffLink.length > 0);
  const history = {
    signatures: deps.signatures,
    project: deps.project,
    runId: deps.runId,
    revision: ctx.revision,
  };
  return {
    channel: channelOf(issue),
    category: issue.category,
    links,
    environment,
    flaky: [...flakyFindings(issue, history), ...leaks],
    preExisting: preExistingFindings(issue, {
      ...history,
      signature,
      branch: deps.branch,
      change: deps.change,
    }),
    other: [...channelSignals(issue), ...noDiffLink, ...calls.untouched],
  };
}

/**
 * The precedence, first matching row wins (src/signals/README.md has the table and the why):
 *
 * 1. mainline_history — the same signature failed on the target branch without any change:
 *    environment if an environment signal explains it, else flaky if one does, else pre_existing.
 *    History beats a diff link: the identical failure happens without this change.
 * 2. diff_link — a strong link: caused_by_change. stale_test_expectation when the links are only
 *    in test code or a call contract (the expectation or the call is what disagrees with the
 *    code), or when the commit message dropped a name on purpose that the test still uses
 *    (intent); code_regression otherwise (and always for the build channel). Strong links
 *    include a frame calling a function of another file this change modified (calls.ts).
 *    A link beats environment, flaky and other changes' history: a change can produce
 *    environment-looking failures (a wrong host, port, path or version) and intermittent ones
 *    (a race), and another change can break the same test the same way. Except: links only
 *    in test code (a test the change added or edited) do not beat an environment reason — the
 *    new test met the same absent service as the old ones.
 * 3. environment — an environment signal in the failure's own reason (or, for a test timeout,
 *    which has no reason of its own, in its logs).
 * 4. flaky — passed on a retry in this run, flipped at this revision, flagged by the report, or
 *    a uniqueness error on a path the change does not touch (state left by an earlier test or
 *    run: category fixture_or_mock).
 * 5. other_changes_history — the same signature failed on other changes.
 * 6. undecided — need_evidence; weak links, no_diff_link and context-only signals stay listed.
 */
export function decide(inputs: TriageInputs): Decision {
  const env = inputs.environment.filter((f) => decisiveEnvironment(f, inputs.category));
  const mainline = inputs.preExisting.filter((f) => f.scope === 'mainline');
  const strong = inputs.links.filter((l) => l.strength === 'strong');
  const signals = <T extends { signal: Signal }>(xs: readonly T[]) => xs.map((x) => x.signal);
  if (mainline.length > 0) {
    const deciding = signals(mainline);
    if (env.length > 0)
      return made('environment', 'environment', 'mainline_history', [...deciding, ...signals(env)]);
    if (inputs.flaky.length > 0)
      return made('flaky', flakyCategory(inputs.flaky), 'mainline_history', [
        ...deciding,
        ...signals(inputs.flaky),
      ]);
    return made('pre_existing', 'pre_existing', 'mainline_history', deciding);
  }
  const testOnly = strong.every((l) => l.via === 'test');
  if (strong.length > 0 && !(testOnly && env.length > 0))
    return made('caused_by_change', linkCategory(inputs, strong), 'diff_link', signals(strong));
  if (env.length > 0) return made('environment', 'environment', 'environment', signals(env));
  if (inputs.flaky.length > 0)
    return made('flaky', flakyCategory(inputs.flaky), 'flaky', signals(inputs.flaky));
  const others = inputs.preExisting.filter((f) => f.scope === 'other_changes');
  if (others.length > 0)
    return made('pre_existing', 'pre_existing', 'other_changes_history', signals(others));
  return made('need_evidence', 'need_evidence', 'undecided', []);
}

/**
 * Test code only (the change edited the test's lines on the failing path, not the code under
 * test), or a call contract the change moved: the expectation is what disagrees with the code.
 * The engine may refine the category with evidence; the verdict stands.
 */
function linkCategory(inputs: TriageInputs, strong: readonly DiffLink[]): RootCause {
  if (inputs.channel === 'build') return 'code_regression';
  if (strong.every((l) => l.via === 'test')) return 'stale_test_expectation';
  // The message says the name was dropped on purpose and the test still uses it (intent.ts only
  // links test lines the change did not edit): the test holds on to the old contract.
  if (strong.some((l) => l.via === 'intent')) return 'stale_test_expectation';
  const testEdited = strong.some((l) => l.via === 'test');
  const production = strong.some((l) => l.via === 'production' || l.via === 'call');
  if (strong.some((l) => l.via === 'contract') && !testEdited && !production) return 'stale_test_expectation';
  return 'code_regression';
}

/** Data left behind by an earlier test or run is a fixture problem; other flakiness stays `flaky`. */
function flakyCategory(flaky: readonly FlakyFinding[]): RootCause {
  return flaky.every((f) => f.basis === 'state_leak') ? 'fixture_or_mock' : 'flaky';
}

/**
 * The failure's own reason decides; a log line alone does not (services log refused
 * connections while starting up). A test timeout has no reason of its own: its logs are the
 * best account of what it waited for.
 */
function decisiveEnvironment(f: EnvironmentFinding, category: Issue['category']): boolean {
  return f.where === 'reason' || category === 'test_timeout';
}

function made(verdict: Verdict, category: RootCause, rule: TriageRule, deciding: Signal[]): Decision {
  return { verdict, category, rule, deciding };
}
