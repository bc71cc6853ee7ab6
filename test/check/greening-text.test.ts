import { describe, expect, it } from 'vitest';
import { type GreeningKind, scanText } from '../../src/check/index.ts';

function kinds(text: string, scope: 'advice' | 'verify' = 'advice'): GreeningKind[] {
  return [...new Set(scanText(text, scope).map((h) => h.rule.kind))];
}

/** [advice, the kind it must be flagged as] */
const GREENING: [string, GreeningKind][] = [
  // Skipping or disabling tests.
  ['Skip the failing test until the pricing team looks at it.', 'skip'],
  ['Disable the flaky checkout test in CI.', 'skip'],
  ['Quarantine test_rounds_half_up for now.', 'skip'],
  ['Mark the test as expected to fail.', 'skip'],
  ['Mark it as flaky so the pipeline passes.', 'skip'],
  ['The test should be skipped on CI.', 'skip'],
  ['Comment out the failing assertion.', 'skip'],
  ['Just comment it out.', 'skip'],
  // JS/TS
  ["Change `it('totals the items', …)` to `it.skip('totals the items', …)`.", 'skip'],
  ['Use xit( for the cart test.', 'skip'],
  ['Wrap the suite in describe.skip.', 'skip'],
  ['Add jest.retryTimes(3) at the top of the file.', 'retry'],
  ['Add `expect.anything()` in place of the exact total.', 'assertion'],
  ['Replace the assertion with expect(true).toBe(true).', 'assertion'],
  ['Catch the rejection with .catch(() => {}) so the test goes on.', 'swallow'],
  ['Call jest.setTimeout(60000) before the import test.', 'timeout'],
  // Python
  ['Decorate test_rounds_half_up with @pytest.mark.skip(reason="pricing").', 'skip'],
  ['Add @pytest.mark.xfail to the test.', 'skip'],
  ['Wrap the call in try/except Exception: pass', 'swallow'],
  ['Use except: pass around unit_price.', 'swallow'],
  ['Install pytest-rerunfailures and run with --reruns 3.', 'retry'],
  ['Add the @flaky decorator to the test.', 'retry'],
  ['Change the assertion to assert True', 'assertion'],
  // Java
  ['Annotate totalsCents with @Disabled.', 'skip'],
  ['Put @Ignore on InvoiceTest.', 'skip'],
  ['Add @RepeatedTest(5) to the test.', 'retry'],
  ['Replace the assertEquals with assertTrue(true).', 'assertion'],
  ['Wrap it in try { … } catch (Exception e) {}', 'swallow'],
  ['Run with -DskipTests.', 'skip'],
  ['Raise the timeout with @Timeout(120).', 'timeout'],
  // Go
  ['Call t.Skip("flaky") at the start of TestPost.', 'skip'],
  ['Assign the error to `_ = err` and continue.', 'swallow'],
  ['Use assert.True(t, true) instead.', 'assertion'],
  ['Run go test with -timeout 10m.', 'timeout'],
  // Deleting or weakening assertions, in words.
  ['Delete the assertion on the total.', 'assertion'],
  ['Remove the assertEquals call.', 'assertion'],
  ['Drop the failing expect.', 'assertion'],
  ['Loosen the tolerance of the comparison to 0.5.', 'assertion'],
  ['Increase the delta so the comparison passes.', 'assertion'],
  ['Update the expected value to the actual output.', 'assertion'],
  ['Set the expectation to whatever the code returns.', 'assertion'],
  ['Weaken the assertion to only check the type.', 'assertion'],
  ['Make the assertion less strict.', 'assertion'],
  ['Run jest -u to refresh the snapshots.', 'assertion'],
  // Swallowing exceptions, in words.
  ['Catch the ValueError and ignore it.', 'swallow'],
  ['Swallow the exception in create_order.', 'swallow'],
  ['Ignore errors from the database client.', 'swallow'],
  ['Append || true to the test command.', 'swallow'],
  ['Set continue-on-error: true on the job.', 'swallow'],
  // Blanket retries, in words.
  ['Just retry the job.', 'retry'],
  ['Rerun the pipeline until it passes.', 'retry'],
  ['Add automatic retries to the test suite.', 'retry'],
  // Timeouts, in words.
  ['Increase the timeout to 60 seconds.', 'timeout'],
  ['Give the test a longer timeout.', 'timeout'],
  ['Bump the test timeout.', 'timeout'],
  ['Set the timeout to 120 s.', 'timeout'],
];

/** Legitimate advice that shares words with greening: none of it may be flagged. */
const LEGITIMATE: string[] = [
  "Fix the assertion's expected value to the new contract: the login endpoint now takes `email`.",
  'Update the expected value to 12.35, the HALF_UP result the pricing spec requires.',
  "Update the test's expectation to the new contract; keep what it checks.",
  'Round the total with Decimal.quantize(ROUND_HALF_UP) instead of int().',
  'Restore the field mapping of buyer_id in OrderAssembler.toCommand.',
  'Do not skip the test: fix the rounding in unit_price.',
  'Rather than disabling the test, isolate its data between runs.',
  'Instead of deleting the assertion, assert the new rounding.',
  'Remove the `@Disabled` annotation from InvoiceTest once the fix lands.',
  'Re-enable the skipped test.',
  'Replace `it.skip(` with `it(` so the test runs again.',
  'Delete the assertion on the old total and assert the HALF_UP value instead.',
  'Replace the stale assertEquals(2, …) with assertEquals(3, …).',
  'Handle the error returned by save() instead of ignoring it.',
  'Restore the retry with backoff that the change removed from the HTTP client call.',
  'Add a retry with backoff to the payment client request.',
  'Use Decimal rather than float so the comparison needs no tolerance.',
  'The test data is not cleaned between runs: truncate the orders table in the fixture teardown.',
  'Skip the null check only for guest carts in CartService.merge (the diff made it unconditional).',
  'Make the assembler copy buyer_id from the request.',
  // The rules engine's own wording (src/engines/rules/plan.ts).
  'compare what this change did on the failing path with what the test asserts, and restore the behaviour the assertion expects (or, if the new behaviour is intended, update the test to the new contract)',
  'make the test data or mock match the current interface, and isolate it between tests',
  'restore what the run needed on the CI runner (service, network, resources); no code change',
  'find what the test depends on besides the code (order, shared data, time) and remove that dependency',
  'nothing in this change: the failure exists without it and belongs to the test owner on the target branch',
  // Code with look-alike words.
  'Call setTimeout(resolve, 10) in the fake clock helper.',
  'Add @Retryable to OrderClient.send, which the change dropped.',
];

describe('greening advice in words and markers', () => {
  it.each(GREENING)('flags %j as %s', (text, kind) => {
    expect(kinds(text)).toContain(kind);
  });

  it.each(LEGITIMATE)('lets %j pass', (text) => {
    expect(scanText(text, 'advice')).toEqual([]);
  });
});

describe('verify commands', () => {
  it.each([
    ['pytest tests/test_price.py -k "not test_rounds_half_up"', 'skip'],
    ['pytest --deselect tests/test_price.py::test_rounds_half_up', 'skip'],
    ['mvn test -DskipTests', 'skip'],
    ['go test ./... -skip TestPost', 'skip'],
    ['pytest --reruns 5 tests/', 'retry'],
    ['npx vitest run --retry=3', 'retry'],
    ['rerun CI until it goes green', 'retry'],
    ['npm test || true', 'swallow'],
    ['npx jest --testTimeout=120000', 'timeout'],
  ] as const)('flags %j as %s', (command, kind) => {
    expect(kinds(command, 'verify')).toContain(kind);
  });

  it.each([
    'pytest tests/test_price.py -k test_rounds_half_up',
    'mvn -Dtest=InvoiceTest test',
    'go test ./ledger -run TestPost -count=1',
    'npx vitest run test/cart.test.ts',
    // Re-running to learn whether it is flaky is verification, not a fix.
    'rerun the test 20 times on the base revision to see whether it fails there too',
    'retry the test alone, then in suite order, and compare',
  ])('lets %j pass', (command) => {
    expect(scanText(command, 'verify')).toEqual([]);
  });
});
