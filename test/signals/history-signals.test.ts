import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Fact } from '../../src/schemas/index.ts';
import {
  failureSignature,
  flakyFindings,
  flakySignals,
  noDiffLinkSignals,
  preExistingFindings,
  preExistingSignals,
} from '../../src/signals/index.ts';
import { IN_MEMORY, type SignatureEntry, SignatureStore } from '../../src/store/signatures/index.ts';
import { candidate, issueWith, location, modified } from './helpers.ts';

const REV = 'c'.repeat(40);
const OTHER_REV = 'd'.repeat(40);
const KEY = 'orders#creates an order';

describe('flaky: retries in the same run', () => {
  const deps = { signatures: null, project: 'shop', runId: 'run-9', revision: REV };

  it('is flaky when an earlier attempt passed, citing that retry fact', () => {
    const facts: Fact[] = [
      { type: 'retry', name: '#1', value: 'failed: AssertionError: unit cache was cold' },
      { type: 'retry', name: '#2', value: 'passed' },
    ];
    const issue = issueWith({ message: 'AssertionError: unit cache was cold', facts });

    const [signal] = flakySignals(issue, deps);

    expect(signal?.kind).toBe('flaky');
    expect(signal?.detail).toBe(
      'passed on 1 of 3 attempts in this run: the same code both passed and failed',
    );
    expect(signal?.cites).toEqual([{ kind: 'fact', issue_id: '001', index: 3 }]);
  });

  it('is not flaky when every attempt failed (Surefire reruns)', () => {
    const facts: Fact[] = [
      { type: 'retry', name: '#1', value: 'failed: VAT for DE ==> expected: <2.35> but was: <2.34>' },
      { type: 'retry', name: '#2', value: 'failed: VAT for DE ==> expected: <2.35> but was: <2.34>' },
    ];

    expect(flakySignals(issueWith({ message: 'VAT for DE', facts }), deps)).toEqual([]);
  });

  it("takes the report's own flaky mark", () => {
    const issue = issueWith({
      message: 'x',
      facts: [{ type: 'flaky', value: 'marked flaky by the report' }],
    });

    expect(flakyFindings(issue, deps).map((f) => f.basis)).toEqual(['report_flag']);
  });
});

describe('signature history', () => {
  let store: SignatureStore;
  const issue = issueWith({ message: 'AssertionError: expected 2690 to be 2290', key: KEY });
  const signature = failureSignature(issue);
  const row = (over: Partial<SignatureEntry>): SignatureEntry => ({
    signature,
    test_key: KEY,
    project: 'shop',
    branch: 'master',
    change: 77,
    patchset: 1,
    revision: REV,
    outcome: 'failed',
    run_id: 'r',
    seen_at: '2026-09-16T10:00:00.000Z',
    ...over,
  });
  const history = () => ({ signatures: store, project: 'shop', runId: 'this-run', revision: REV });
  const preDeps = () => ({ ...history(), signature, branch: 'master', change: 1001 });

  beforeEach(() => {
    store = new SignatureStore(IN_MEMORY);
  });
  afterEach(() => store.close());

  it('flags a pass/fail flip at the same revision', () => {
    store.recordAll([
      row({ run_id: 'this-run', change: 1001 }),
      row({
        run_id: 'rerun',
        change: 1001,
        outcome: 'passed',
        signature: null,
        seen_at: '2026-09-17T11:00:00.000Z',
      }),
    ]);

    const [finding] = flakyFindings(issue, history());

    expect(finding?.basis).toBe('history_flip');
    expect(finding?.signal.detail).toContain('passed in 1 other run(s) and failed in 1 (this one included)');
    expect(finding?.signal.cites[0]).toMatchObject({ kind: 'signal', name: 'signature_history' });
    expect(finding?.signal.cites[0]?.kind === 'signal' && finding.signal.cites[0].detail).toMatch(
      /^passed in run rerun \(change 1001\/1 on master\)/,
    );
  });

  it('does not call a pass at another revision a flip', () => {
    store.record(row({ run_id: 'older', outcome: 'passed', signature: null, revision: OTHER_REV }));

    expect(flakySignals(issue, history())).toEqual([]);
  });

  it('finds the signature on mainline and on other changes', () => {
    store.recordAll([
      row({
        run_id: 'nightly-1',
        change: null,
        patchset: null,
        revision: OTHER_REV,
        seen_at: '2026-09-15T02:00:00.000Z',
      }),
      row({ run_id: 'change-77', change: 77 }),
      row({ run_id: 'change-88', change: 88, branch: 'release-1' }),
      row({ run_id: 'own-earlier-patchset', change: 1001, patchset: 1 }),
    ]);

    const found = preExistingFindings(issue, preDeps());

    expect(found.map((f) => [f.scope, f.occurrences, f.changes])).toEqual([
      ['mainline', 1, 0],
      ['other_changes', 2, 2],
    ]);
    expect(found[0]?.signal.detail).toBe(
      'the same failure signature occurs on master mainline: 1 earlier failure(s), latest 2026-09-15T02:00:00.000Z',
    );
    expect(found[0]?.signal.cites).toEqual([
      {
        kind: 'signal',
        name: 'signature_history',
        detail: `failed in run nightly-1 (master mainline) at revision ${OTHER_REV.slice(0, 12)}, 2026-09-15T02:00:00.000Z, signature ${signature}`,
      },
    ]);
  });

  it('finds nothing for another signature, and nothing without a store', () => {
    store.record(
      row({
        run_id: 'nightly',
        change: null,
        patchset: null,
        revision: OTHER_REV,
        signature: 'ffffffffffffffff',
      }),
    );

    expect(preExistingSignals(issue, preDeps())).toEqual([]);
    expect(preExistingSignals(issue, { ...preDeps(), signatures: null })).toEqual([]);
  });
});

describe('no_diff_link', () => {
  const untouched = { kind: 'untouched' as const };
  const stack = [
    location('/ci/ws/src/shipping.ts', 12, 'zoneFor'),
    location('/ci/ws/test/checkout.test.ts', 25, null, 'test'),
  ];
  const located = [
    candidate('src/shipping.ts', 12, untouched, 'failure', 'zoneFor'),
    candidate('test/checkout.test.ts', 25, untouched, 'test', 'test'),
  ];
  const issueOf = (over: Parameters<typeof issueWith>[0] = {}) =>
    issueWith({
      message: "Cannot read properties of undefined (reading 'country')",
      full_name: 'shop:test/checkout.test.ts#Checkout quotes shipping for a guest customer',
      locations: stack,
      candidates: located,
      ...over,
    });

  it('says the failing test ran none of the changed code, citing the frames', () => {
    const [signal] = noDiffLinkSignals(issueOf(), { diff: [modified('src/ledger.ts', [[21, 1]])] });

    expect(signal?.kind).toBe('no_diff_link');
    expect(signal?.detail).toContain('src/ledger.ts');
    expect(signal?.cites).toEqual([
      { kind: 'code', file: 'src/shipping.ts', lines: { start: 12, end: 12 } },
      { kind: 'code', file: 'test/checkout.test.ts', lines: { start: 25, end: 25 } },
    ]);
  });

  it.each([
    ['the diff is unknown', {}, []],
    ['a frame is in a changed file', {}, [modified('src/shipping.ts', [[40, 2]])]],
    ["the test's own file changed", {}, [modified('test/checkout.test.ts', [[80, 3]])]],
    [
      "the test's file, named by the test id only, changed",
      { locations: stack.slice(0, 1), candidates: located.slice(0, 1) },
      [modified('test/checkout.test.ts', [[80, 3]])],
    ],
    [
      'a frame could not be located',
      { candidates: [...located, { ...candidate('src/gen.ts', 3, { kind: 'unknown' }), file: null }] },
      [modified('src/ledger.ts', [[21, 1]])],
    ],
    [
      'an unlocated frame shares a changed file name',
      { locations: [...stack, location('/ci/ws/lib/ledger.ts', 9, 'post', 'frame')] },
      [modified('src/ledger.ts', [[21, 1]])],
    ],
    ['the stack shows no project frame', { candidates: [] }, [modified('src/ledger.ts', [[21, 1]])]],
  ])('says nothing when %s', (_why, over, diff) => {
    expect(noDiffLinkSignals(issueOf(over), { diff })).toEqual([]);
  });
});
