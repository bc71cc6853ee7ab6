import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Triage } from '../../src/schemas/index.ts';
import {
  type DiffLink,
  decide,
  type EnvironmentFinding,
  type FlakyFinding,
  failureSignature,
  type PreExistingFinding,
  type TriageInputs,
  triageIssue,
} from '../../src/signals/index.ts';
import { IN_MEMORY, SignatureStore } from '../../src/store/signatures/index.ts';
import { useParser } from '../locate/anchor/helpers.ts';
import {
  candidate,
  codeFrom,
  codeWith,
  contextWith,
  issueWith,
  MemoryEvidence,
  modified,
} from './helpers.ts';

const signal = (kind: 'pre_existing' | 'flaky' | 'environment' | 'diff_impact', detail: string) => ({
  kind,
  detail,
  cites: [],
});
const strong = (via: DiffLink['via'] = 'production'): DiffLink => ({
  strength: 'strong',
  via,
  file: 'src/a.ts',
  signal: signal('diff_impact', `strong ${via}`),
});
const weak: DiffLink = {
  strength: 'weak',
  via: 'production',
  file: 'src/a.ts',
  signal: signal('diff_impact', 'weak'),
};
const env = (where: EnvironmentFinding['where'] = 'reason'): EnvironmentFinding => ({
  problem: 'connection_refused',
  where,
  signal: signal('environment', `env ${where}`),
});
const flaky: FlakyFinding = { basis: 'retry_passed', signal: signal('flaky', 'retry') };
const leak: FlakyFinding = { basis: 'state_leak', signal: signal('flaky', 'leak') };
const mainline: PreExistingFinding = {
  scope: 'mainline',
  occurrences: 2,
  changes: 0,
  signal: signal('pre_existing', 'mainline'),
};
const others: PreExistingFinding = {
  scope: 'other_changes',
  occurrences: 1,
  changes: 1,
  signal: signal('pre_existing', 'others'),
};

function inputs(over: Partial<TriageInputs>): TriageInputs {
  return {
    channel: 'test',
    category: 'test_error',
    links: [],
    environment: [],
    flaky: [],
    preExisting: [],
    other: [],
    ...over,
  };
}

describe('decide: the precedence table', () => {
  it.each<[string, Partial<TriageInputs>, string, string, string, string[]]>([
    ['nothing', {}, 'need_evidence', 'need_evidence', 'undecided', []],
    [
      'a strong production link',
      { links: [strong()] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong production'],
    ],
    [
      'test code only',
      { links: [strong('test')] },
      'caused_by_change',
      'stale_test_expectation',
      'diff_link',
      ['strong test'],
    ],
    [
      'a call contract',
      { links: [strong('contract')] },
      'caused_by_change',
      'stale_test_expectation',
      'diff_link',
      ['strong contract'],
    ],
    [
      'a contract and the test edited',
      { links: [strong('contract'), strong('test')] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong contract', 'strong test'],
    ],
    [
      'test and production code',
      { links: [strong('test'), strong()] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong test', 'strong production'],
    ],
    [
      'a build failure in test code',
      { channel: 'build', category: 'compilation_error', links: [strong('test')] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong test'],
    ],
    [
      'a manifest link',
      { channel: 'build', category: 'dependency_resolution', links: [strong('manifest')] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong manifest'],
    ],
    ['a weak link only', { links: [weak] }, 'need_evidence', 'need_evidence', 'undecided', []],
    ['environment', { environment: [env()] }, 'environment', 'environment', 'environment', ['env reason']],
    [
      'environment in a log only',
      { environment: [env('context')] },
      'need_evidence',
      'need_evidence',
      'undecided',
      [],
    ],
    [
      'environment in the log of a test timeout',
      { category: 'test_timeout', environment: [env('context')] },
      'environment',
      'environment',
      'environment',
      ['env context'],
    ],
    [
      'environment and a weak link',
      { links: [weak], environment: [env()] },
      'environment',
      'environment',
      'environment',
      ['env reason'],
    ],
    [
      'environment and a strong link',
      { links: [strong()], environment: [env()] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong production'],
    ],
    [
      'environment and a strong link in test code only (a new test met the same absent service)',
      { links: [strong('test')], environment: [env()] },
      'environment',
      'environment',
      'environment',
      ['env reason'],
    ],
    ['flaky', { flaky: [flaky] }, 'flaky', 'flaky', 'flaky', ['retry']],
    [
      'flaky and a strong link',
      { links: [strong()], flaky: [flaky] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong production'],
    ],
    [
      'flaky and environment',
      { flaky: [flaky], environment: [env()] },
      'environment',
      'environment',
      'environment',
      ['env reason'],
    ],
    [
      'other changes',
      { preExisting: [others] },
      'pre_existing',
      'pre_existing',
      'other_changes_history',
      ['others'],
    ],
    [
      'other changes and flaky',
      { preExisting: [others], flaky: [flaky] },
      'flaky',
      'flaky',
      'flaky',
      ['retry'],
    ],
    [
      'other changes and a strong link',
      { preExisting: [others], links: [strong()] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong production'],
    ],
    [
      'mainline',
      { preExisting: [mainline] },
      'pre_existing',
      'pre_existing',
      'mainline_history',
      ['mainline'],
    ],
    [
      'mainline and a strong link',
      { preExisting: [mainline], links: [strong()] },
      'pre_existing',
      'pre_existing',
      'mainline_history',
      ['mainline'],
    ],
    [
      'mainline and environment',
      { preExisting: [mainline], environment: [env()] },
      'environment',
      'environment',
      'mainline_history',
      ['mainline', 'env reason'],
    ],
    [
      'mainline and flaky',
      { preExisting: [mainline, others], flaky: [flaky] },
      'flaky',
      'flaky',
      'mainline_history',
      ['mainline', 'retry'],
    ],
    [
      'a call of a changed function',
      { links: [strong('call')] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong call'],
    ],
    [
      'a call contract and a call of a changed function',
      { links: [strong('contract'), strong('call')] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong contract', 'strong call'],
    ],
    [
      'an intended contract change the test still uses',
      { links: [strong('call'), strong('intent')] },
      'caused_by_change',
      'stale_test_expectation',
      'diff_link',
      ['strong call', 'strong intent'],
    ],
    [
      'an intended contract change and production code on the stack',
      { links: [strong('production'), strong('intent')] },
      'caused_by_change',
      'stale_test_expectation',
      'diff_link',
      ['strong production', 'strong intent'],
    ],
    ['state left by an earlier run', { flaky: [leak] }, 'flaky', 'fixture_or_mock', 'flaky', ['leak']],
    [
      'a state leak and a passed retry',
      { flaky: [leak, flaky] },
      'flaky',
      'flaky',
      'flaky',
      ['leak', 'retry'],
    ],
    [
      'mainline and a state leak',
      { preExisting: [mainline], flaky: [leak] },
      'flaky',
      'fixture_or_mock',
      'mainline_history',
      ['mainline', 'leak'],
    ],
    [
      'a state leak and a strong link',
      { links: [strong('call')], flaky: [leak] },
      'caused_by_change',
      'code_regression',
      'diff_link',
      ['strong call'],
    ],
  ])('%s', (_case, over, verdict, category, rule, deciding) => {
    const decision = decide(inputs(over));

    expect([decision.verdict, decision.category, decision.rule]).toEqual([verdict, category, rule]);
    expect(decision.deciding.map((s) => s.detail)).toEqual(deciding);
  });
});

describe('triageIssue', () => {
  const deps = (signatures: SignatureStore | null = null) => ({
    signatures,
    masks: [],
    project: 'shop',
    branch: 'master',
    change: 1001,
    runId: 'run-5',
  });

  it('keeps conflicting signals: a refused connection in a line this change modified', async () => {
    const evidence = new MemoryEvidence();
    const issue = issueWith(
      {
        message: 'Error: connect ECONNREFUSED 127.0.0.1:5433',
        trace:
          'Error: connect ECONNREFUSED 127.0.0.1:5433\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
        candidates: [
          candidate(
            'src/db.ts',
            8,
            { kind: 'in_hunk', changed_lines: [{ start: 8, end: 8 }] },
            'failure',
            'connect',
          ),
        ],
      },
      evidence,
    );
    const ctx = contextWith({ evidence, diff: [modified('src/db.ts', [[8, 1]])] });

    const triage = await triageIssue(issue, ctx, deps());

    expect(Triage.parse(triage)).toEqual(triage);
    expect([triage.verdict, triage.category, triage.channel]).toEqual([
      'caused_by_change',
      'code_regression',
      'test',
    ]);
    // The winner first, the overruled environment signal still listed.
    expect(triage.signals.map((s) => s.kind)).toEqual(['diff_impact', 'environment']);
    expect(triage.signature).toBe(failureSignature(issue));
  });

  it('is environment for the same failure when the change did not touch the path', async () => {
    const evidence = new MemoryEvidence();
    const issue = issueWith(
      {
        message: 'Error: connect ECONNREFUSED 127.0.0.1:5433',
        candidates: [candidate('src/db.ts', 8, { kind: 'untouched' }, 'failure', 'connect')],
      },
      evidence,
    );

    const triage = await triageIssue(
      issue,
      contextWith({ evidence, diff: [modified('src/cart.ts', [[3, 1]])] }),
      deps(),
    );

    expect([triage.verdict, triage.category]).toEqual(['environment', 'environment']);
    expect(triage.signals.map((s) => s.kind)).toEqual(['environment', 'no_diff_link']);
  });

  describe('with history', () => {
    let store: SignatureStore;
    beforeEach(() => {
      store = new SignatureStore(IN_MEMORY);
    });
    afterEach(() => store.close());

    it('is pre_existing when the target branch failed the same way, even where the change touched the frame', async () => {
      const issue = issueWith({
        message: 'AssertionError: expected 2690 to be 2290',
        category: 'test_assertion',
        candidates: [candidate('src/shipping.ts', 30, { kind: 'in_function' })],
      });
      store.record({
        signature: failureSignature(issue),
        test_key: issue.test.key,
        project: 'shop',
        branch: 'master',
        change: null,
        patchset: null,
        revision: 'b'.repeat(40),
        outcome: 'failed',
        run_id: 'nightly-3',
        seen_at: '2026-09-15T02:00:00.000Z',
      });

      const triage = await triageIssue(
        issue,
        contextWith({ diff: [modified('src/shipping.ts', [[28, 1]])] }),
        deps(store),
      );

      expect([triage.verdict, triage.category]).toEqual(['pre_existing', 'pre_existing']);
      expect(triage.signals.map((s) => s.kind)).toEqual(['pre_existing', 'diff_impact']);
    });

    it('is flaky when another run at this revision passed', async () => {
      const issue = issueWith({ message: 'AssertionError: unit cache was cold', category: 'test_assertion' });
      store.record({
        signature: null,
        test_key: issue.test.key,
        project: 'shop',
        branch: 'master',
        change: 1001,
        patchset: 2,
        revision: 'f'.repeat(40),
        outcome: 'passed',
        run_id: 'rerun-1',
        seen_at: '2026-09-17T11:00:00.000Z',
      });

      const triage = await triageIssue(issue, contextWith(), deps(store));

      expect([triage.verdict, triage.category]).toEqual(['flaky', 'flaky']);
    });
  });

  it('is stale_test_expectation when the change moved a signature the test still calls the old way', async () => {
    const issue = issueWith({
      message: "TypeError: login() got an unexpected keyword argument 'username'",
      full_name: 'tests.test_login#test_login_with_username',
      candidates: [
        candidate('tests/test_login.py', 12, { kind: 'untouched' }, 'failure', 'test_login_with_username'),
      ],
    });
    const code = codeWith({
      'auth/service.py': [
        { name: 'login', qualified: 'login', kind: 'function', lines: { start: 5, end: 20 } },
      ],
    });

    const triage = await triageIssue(
      issue,
      contextWith({ code, diff: [modified('auth/service.py', [[5, 1]])] }),
      deps(),
    );

    expect([triage.verdict, triage.category]).toEqual(['caused_by_change', 'stale_test_expectation']);
    expect(triage.signals[0]?.detail).toContain('no longer fits login');
  });

  it('takes the build channel and blames the change for a compile error in a file it modified', async () => {
    const issue = issueWith({
      message: "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?",
      category: 'compilation_error',
      candidates: [candidate('inventory/legacy_sync.py', 8, { kind: 'in_file' })],
    });

    const triage = await triageIssue(
      issue,
      contextWith({ diff: [modified('inventory/legacy_sync.py', [[40, 2]])] }),
      deps(),
    );

    expect([triage.verdict, triage.category, triage.channel]).toEqual([
      'caused_by_change',
      'code_regression',
      'build',
    ]);
    expect(triage.signals.map((s) => s.kind)).toEqual(['diff_impact', 'build_channel']);
  });

  it('needs evidence when nothing decides, listing what it saw', async () => {
    const issue = issueWith({
      message: 'Cannot read properties of undefined',
      candidates: [candidate('src/shipping.ts', 12, { kind: 'in_file' })],
    });

    const triage = await triageIssue(
      issue,
      contextWith({ diff: [modified('src/shipping.ts', [[90, 1]])] }),
      deps(),
    );

    expect([triage.verdict, triage.category]).toEqual(['need_evidence', 'need_evidence']);
    expect(triage.signals.map((s) => s.kind)).toEqual(['diff_impact']);
  });
});

describe('triageIssue with the code read by the real parser', () => {
  const parser = useParser();
  const deps = { signatures: null, masks: [], project: 'shop', branch: 'main', change: 7, runId: 'run-1' };
  const testFrame = (file: string, line: number, fn: string, start: number, end: number) => ({
    ...candidate(file, line, { kind: 'untouched' }, 'test', fn),
    function: { name: fn, lines: { start, end } },
  });

  it('blames the change when the assertion calls a function it modified in another file, and drops no_diff_link', async () => {
    const code = codeFrom(
      {
        'pricing/price.py': 'def gross_price(net, rate):\n    return int(net * (1 + rate) * 100) / 100\n',
        'tests/test_price.py': 'def test_rounds():\n    assert gross_price(2.5, 0.07) == 2.68\n',
      },
      parser,
    );
    const issue = issueWith({
      message: 'AssertionError: assert 2.67 == 2.68',
      category: 'test_assertion',
      candidates: [testFrame('tests/test_price.py', 2, 'test_rounds', 1, 2)],
    });

    const triage = await triageIssue(
      issue,
      contextWith({ code, diff: [modified('pricing/price.py', [[2, 1]])] }),
      deps,
    );

    expect([triage.verdict, triage.category]).toEqual(['caused_by_change', 'code_regression']);
    expect(triage.signals.map((s) => s.kind)).toEqual(['diff_impact']);
    expect(triage.signals[0]?.detail).toContain(
      'calls gross_price, which this change modified in pricing/price.py',
    );
  });

  it('says flaky / fixture_or_mock for a duplicate record on a path the change does not touch', async () => {
    const code = codeFrom(
      {
        'tests/conftest.py':
          'import pytest\n\n\n@pytest.fixture\ndef store():\n    return Store("build/users.json")\n',
        'tests/test_signup.py': 'def test_signup(store):\n    store.register("ada@example.com")\n',
        'accounts/profile.py': 'def display_name(name):\n    return name.strip()\n',
      },
      parser,
    );
    const issue = issueWith({
      message: "accounts.store.DuplicateUserError: 'ada@example.com' is already registered",
      candidates: [testFrame('tests/test_signup.py', 2, 'test_signup', 1, 2)],
    });

    const triage = await triageIssue(
      issue,
      contextWith({ code, diff: [modified('accounts/profile.py', [[2, 1]])] }),
      deps,
    );

    expect([triage.verdict, triage.category]).toEqual(['flaky', 'fixture_or_mock']);
    expect(triage.signals.map((s) => s.kind)).toEqual(['flaky', 'no_diff_link']);
  });

  it('keeps the same duplicate error need_evidence when the change touches the failing test', async () => {
    const code = codeFrom(
      {
        'tests/conftest.py':
          'import pytest\n\n\n@pytest.fixture\ndef store():\n    return Store("build/users.json")\n',
        'tests/test_signup.py': 'def test_signup(store):\n    store.register("ada@example.com")\n',
      },
      parser,
    );
    const issue = issueWith({
      message: "accounts.store.DuplicateUserError: 'ada@example.com' is already registered",
      candidates: [testFrame('tests/test_signup.py', 2, 'test_signup', 1, 2)],
    });

    const triage = await triageIssue(
      issue,
      contextWith({ code, diff: [modified('tests/test_signup.py', [[1, 1]])] }),
      deps,
    );

    expect(triage.signals.some((s) => s.kind === 'flaky')).toBe(false);
  });
});
