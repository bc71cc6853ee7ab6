import type { ChangeAdvice, Claim, Issue, VerifiedLocation } from '../../schemas/index.ts';
import type { FixPlan, RootCauseChain } from '../../skill/index.ts';
import { isTestPath } from './test-paths.ts';
import { rerunCommand } from './verify-command.ts';

/**
 * Stage `fix_plan` by rule: where and why come from the chain; the "how" stays at the level a
 * rule can support (review this change against the assertion), never a guessed edit, and
 * never one that only turns CI green.
 */
export function planFix(issue: Issue, chain: RootCauseChain, chosen: VerifiedLocation | null): FixPlan {
  const rerun = rerunCommand(issue);
  const verify = rerun === null ? [] : [rerun];
  return { change: adviceFor(chain, chosen), verify };
}

function adviceFor(chain: RootCauseChain, chosen: VerifiedLocation | null): ChangeAdvice | null {
  const file = chosen?.file ?? null;
  const fn = chosen?.function?.name ?? null;
  const because = lastCited(chain);
  switch (chain.category) {
    case 'code_regression':
      return advice(
        isTestPath(file ?? '') ? 'test' : 'code',
        file,
        fn,
        because,
        'compare what this change did on the failing path with what the test asserts, and restore the behaviour the assertion expects (or, if the new behaviour is intended, update the test to the new contract)',
      );
    case 'stale_test_expectation':
      return advice(
        'test',
        file,
        fn,
        because,
        "update the test's expectation to the new contract; keep what it checks",
      );
    case 'fixture_or_mock':
      return advice(
        'test_data',
        file,
        fn,
        because,
        'make the test data or mock match the current interface, and isolate it between tests',
      );
    case 'environment':
      return advice(
        'environment',
        null,
        null,
        because,
        'restore what the run needed on the CI runner (service, network, resources); no code change',
      );
    case 'flaky':
      return advice(
        'test',
        file,
        fn,
        because,
        'find what the test depends on besides the code (order, shared data, time) and remove that dependency',
      );
    case 'pre_existing':
      return advice(
        'none',
        null,
        null,
        because,
        'nothing in this change: the failure exists without it and belongs to the test owner on the target branch',
      );
    default:
      return null;
  }
}

function advice(
  target: ChangeAdvice['target'],
  file: string | null,
  fn: string | null,
  because: Claim | null,
  how: string,
): ChangeAdvice | null {
  if (because === null) return null;
  return {
    target,
    file,
    function: fn,
    advice: { text: how, cites: because.cites },
    rationale: because,
    impact: [],
  };
}

/** The chain's last claim (the earliest deviation found) carries the citations the advice rests on. */
function lastCited(chain: RootCauseChain): Claim | null {
  return [...chain.chain].reverse().find((c) => c.cites.length > 0) ?? null;
}
