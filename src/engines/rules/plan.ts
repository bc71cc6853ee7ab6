import type { ChangeAdvice, Claim, Issue } from '../../schemas/index.ts';
import type { FixPlan, RootCauseChain } from '../../skill/index.ts';
import type { Focus } from './place.ts';
import { isTestPath } from './test-paths.ts';
import { rerunCommand } from './verify-command.ts';

/**
 * Stage `fix_plan` by rule: where and why come from the chain; the "how" stays at the level a
 * rule can support (review this change against the assertion), never a guessed edit, and
 * never one that only turns CI green.
 */
export function planFix(issue: Issue, chain: RootCauseChain, focus: Focus): FixPlan {
  const rerun = rerunCommand(issue);
  const verify = rerun === null ? [] : [rerun];
  if (rerun !== null && focus.role === 'fixture')
    verify.push(
      `run \`${rerun}\` twice in a row in the same workspace, without cleaning it in between: both runs must pass`,
    );
  return { change: adviceFor(chain, focus), verify };
}

function adviceFor(chain: RootCauseChain, focus: Focus): ChangeAdvice | null {
  const target = focus.target?.target ?? null;
  const file = target?.file ?? focus.candidate?.file ?? null;
  const fn = target !== null ? target.function : (focus.candidate?.function?.name ?? null);
  const name = fn ?? file ?? 'it';
  const because = lastCited(chain);
  switch (chain.category) {
    case 'code_regression':
      return advice(
        isTestPath(file ?? '') ? 'test' : 'code',
        file,
        fn,
        because,
        focus.role === 'changed_function'
          ? `review what this change did to ${name} against what the failing test expects, and restore the behaviour the assertion checks where the change broke it (or, if the new behaviour is intended, update the test to the new contract)`
          : 'compare what this change did on the failing path with what the test asserts, and restore the behaviour the assertion expects (or, if the new behaviour is intended, update the test to the new contract)',
      );
    case 'stale_test_expectation':
      return advice(
        'test',
        file,
        fn,
        because,
        focus.role === 'stale_use'
          ? `update ${name} to the contract this change introduced on purpose (the name it dropped, as its commit message says); keep what the test checks`
          : "update the test's expectation to the new contract; keep what it checks",
      );
    case 'fixture_or_mock':
      return advice(
        'test_data',
        file,
        fn,
        because,
        focus.role === 'fixture'
          ? `make ${name} give every test fresh, isolated data (for example a new store in a per-test temporary directory, cleaned up afterwards), so that nothing is left from an earlier test or run; no production change`
          : 'make the test data or mock match the current interface, and isolate it between tests',
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
