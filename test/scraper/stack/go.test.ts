import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../../scraper/stack/index.ts';
import { itFindsRoles, type TraceCase } from './helpers.ts';

/** Printed by real runs here (go 1.26) on module example.com/shop. */
const PANIC_NIL_MAP = `--- FAIL: TestNilMap (0.00s)
panic: assignment to entry in nil map [recovered, repanicked]

goroutine 6 [running]:
testing.tRunner.func1.2({0x55b7a0, 0x6cbe30})
\t/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
\t/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x55b7a0?, 0x6cbe30?})
\t/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/shop/cart.(*Cart).Add(...)
\t/tmp/stackgen/go/cart/cart.go:15
example.com/shop/cart.TestNilMap(0xd90004de6c8?)
\t/tmp/stackgen/go/cart/cart_test.go:16 +0x29
testing.tRunner(0xd90004de6c8, 0x593eb0)
\t/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
\t/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL\texample.com/shop/cart\t0.009s
FAIL`;

const PANIC_EXPLICIT = `--- FAIL: TestExplicitPanic (0.00s)
panic: qty must be positive, got 0 [recovered, repanicked]

goroutine 6 [running]:
testing.tRunner.func1.2({0x551fc0, 0x92a6d9e0450})
\t/usr/local/go/src/testing/testing.go:1974 +0x232
testing.tRunner.func1()
\t/usr/local/go/src/testing/testing.go:1977 +0x349
panic({0x551fc0?, 0x92a6d9e0450?})
\t/usr/local/go/src/runtime/panic.go:860 +0x13a
example.com/shop/cart.(*Cart).Add(...)
\t/tmp/stackgen/go/cart/cart.go:13
example.com/shop/cart.TestExplicitPanic(0x92a6d9d26c8?)
\t/tmp/stackgen/go/cart/cart_test.go:35 +0xd4
testing.tRunner(0x92a6d9d26c8, 0x593ea8)
\t/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
\t/usr/local/go/src/testing/testing.go:2101 +0x4c5
FAIL\texample.com/shop/cart\t0.005s
FAIL`;

const PANIC_MAIN = `panic: runtime error: index out of range [7] with length 0

goroutine 1 [running]:
main.main()
\t/tmp/stackgen/go/cmd/shop/main.go:21 +0x3b
exit status 2`;

const TEST_LOGS = `=== RUN   TestTotal
    cart_test.go:10: expected 3, got 2
--- FAIL: TestTotal (0.00s)
=== RUN   TestSub
=== RUN   TestSub/zero
    cart_test.go:22: total: expected 1, got 0
--- FAIL: TestSub (0.00s)
    --- FAIL: TestSub/zero (0.00s)
FAIL
FAIL\texample.com/shop/cart\t0.004s
FAIL`;

const TIMEOUT = `panic: test timed out after 1s
\trunning tests:
\t\tTestSlow (1s)

goroutine 5 [running]:
testing.(*M).startAlarm.func1()
\t/usr/local/go/src/testing/testing.go:2802 +0x354
created by time.goFunc
\t/usr/local/go/src/time/sleep.go:215 +0x2d

goroutine 1 [chan receive]:
testing.(*T).Run(0x24e778320248, {0x586800?, 0x0?}, 0x593ec0)
\t/usr/local/go/src/testing/testing.go:2109 +0x4e5
testing.runTests.func1(0x24e778320248)
\t/usr/local/go/src/testing/testing.go:2585 +0x3e
testing.tRunner(0x24e778320248, 0x24e77835dc58)
\t/usr/local/go/src/testing/testing.go:2036 +0xea
testing.runTests({0x588bd1, 0x10}, {0x58a585, 0x15}, 0x24e7783102a0, {0x6d1360, 0x5, 0x5}, {0xc2bb713b0dda9516, 0x3ba252a2, ...})
\t/usr/local/go/src/testing/testing.go:2583 +0x505
testing.(*M).Run(0x24e77830e6e0)
\t/usr/local/go/src/testing/testing.go:2443 +0x6ac
main.main()
\t_testmain.go:54 +0x9b

goroutine 18 [chan receive]:
example.com/shop/cart.waitForever(...)
\t/tmp/stackgen/go/cart/slow_test.go:8
example.com/shop/cart.TestSlow(0x24e778320488?)
\t/tmp/stackgen/go/cart/slow_test.go:13 +0x78
testing.tRunner(0x24e778320488, 0x593ec0)
\t/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
\t/usr/local/go/src/testing/testing.go:2101 +0x4c5

goroutine 19 [sleep]:
time.Sleep(0x34630b8a000)
\t/usr/local/go/src/runtime/time.go:363 +0x165
example.com/shop/cart.TestSlow.func1()
\t/tmp/stackgen/go/cart/slow_test.go:12 +0x26
created by example.com/shop/cart.TestSlow in goroutine 18
\t/tmp/stackgen/go/cart/slow_test.go:12 +0x5f
FAIL\texample.com/shop/cart\t1.031s
FAIL`;

/** A CI checkout with a dependency from the module cache and a GOROOT from setup-go. */
const MODULE_CACHE = `panic: runtime error: invalid memory address or nil pointer dereference [recovered]
	panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x5e2f3a]

goroutine 7 [running]:
testing.tRunner.func1.2({0x6a2b40, 0x8f3c10})
	/opt/hostedtoolcache/go/1.22.5/x64/src/testing/testing.go:1631 +0x24a
github.com/jackc/pgx/v5.(*Conn).Query(0x0, {0x7a1c08, 0xc0000a4000}, {0x6f3e2d, 0x12}, {0x0, 0x0, 0x0})
	/home/runner/go/pkg/mod/github.com/jackc/pgx/v5@v5.5.5/conn.go:654 +0x3a
github.com/acme/orders/store.(*Store).ListOpen(0xc0000b8000, {0x7a1c08, 0xc0000a4000})
	/home/runner/work/orders/orders/store/store.go:41 +0x85
github.com/acme/orders/store.TestListOpen(0xc0000d2340)
	/home/runner/work/orders/orders/store/store_test.go:23 +0x6f
testing.tRunner(0xc0000d2340, 0x71b4a8)
	/opt/hostedtoolcache/go/1.22.5/x64/src/testing/testing.go:1689 +0xfb
created by testing.(*T).Run in goroutine 1
	/opt/hostedtoolcache/go/1.22.5/x64/src/testing/testing.go:1742 +0x390`;

type Case = TraceCase;

const cases: Case[] = [
  {
    name: 'runtime panic in an inlined method called from the test',
    trace: PANIC_NIL_MAP,
    failure: {
      file: '/tmp/stackgen/go/cart/cart.go',
      line: 15,
      function: 'cart.(*Cart).Add',
      frame_index: 3,
    },
    test: {
      file: '/tmp/stackgen/go/cart/cart_test.go',
      line: 16,
      function: 'cart.TestNilMap',
      frame_index: 4,
    },
  },
  {
    name: 'explicit panic(...) in project code',
    trace: PANIC_EXPLICIT,
    hints: { testName: 'TestExplicitPanic' },
    failure: {
      file: '/tmp/stackgen/go/cart/cart.go',
      line: 13,
      function: 'cart.(*Cart).Add',
      frame_index: 3,
    },
    test: {
      file: '/tmp/stackgen/go/cart/cart_test.go',
      line: 35,
      function: 'cart.TestExplicitPanic',
      frame_index: 4,
    },
  },
  {
    name: 'panic in main, outside tests',
    trace: PANIC_MAIN,
    failure: { file: '/tmp/stackgen/go/cmd/shop/main.go', line: 21, function: 'main.main', frame_index: 0 },
    test: null,
  },
  {
    name: 'go test log lines: t.Errorf in the test, named by the === RUN header',
    trace: TEST_LOGS,
    hints: { testName: 'TestSub/zero' },
    failure: null,
    test: { file: 'cart_test.go', line: 22, function: 'TestSub/zero', frame_index: 1 },
  },
  {
    name: 'timeout dump: the test goroutine, not the alarm goroutine',
    trace: TIMEOUT,
    failure: null,
    test: { file: '/tmp/stackgen/go/cart/slow_test.go', line: 13, function: 'cart.TestSlow', frame_index: 9 },
  },
  {
    name: 'module cache dependency and setup-go GOROOT are library',
    trace: MODULE_CACHE,
    hints: { testFullName: 'github.com/acme/orders/store.TestListOpen' },
    failure: {
      file: '/home/runner/work/orders/orders/store/store.go',
      line: 41,
      function: 'store.(*Store).ListOpen',
      frame_index: 2,
    },
    test: {
      file: '/home/runner/work/orders/orders/store/store_test.go',
      line: 23,
      function: 'store.TestListOpen',
      frame_index: 3,
    },
  },
];

describe('Go stack traces', () => {
  itFindsRoles(cases, 'go');

  it('marks GOROOT, panic and testing frames as library and drops argument lists', () => {
    const locations = parseStackTrace(PANIC_NIL_MAP);
    expect(locations.map((l) => l.library)).toEqual([true, true, true, false, false, true, true]);
    expect(locations.map((l) => l.function)).toEqual([
      'testing.tRunner.func1.2',
      'testing.tRunner.func1',
      'panic',
      'cart.(*Cart).Add',
      'cart.TestNilMap',
      'testing.tRunner',
      'testing.(*T).Run',
    ]);
    expect(locations[6]).toMatchObject({
      file: '/usr/local/go/src/testing/testing.go',
      line: 2101,
      column: null,
    });
  });

  it('reads one frame per goroutine line pair in a full dump', () => {
    const locations = parseStackTrace(TIMEOUT);
    expect(locations).toHaveLength(15);
    expect(locations[7]).toMatchObject({
      file: '_testmain.go',
      line: 54,
      function: 'main.main',
      library: true,
    });
  });

  it('names test log lines after the test that printed them', () => {
    const locations = parseStackTrace(TEST_LOGS);
    expect(locations.map((l) => [l.file, l.line, l.function])).toEqual([
      ['cart_test.go', 10, 'TestTotal'],
      ['cart_test.go', 22, 'TestSub/zero'],
    ]);
  });

  it("names a JUnit failure's log lines (no === RUN header) after the report's test", () => {
    const junitFailure = '    uuid_test.go:893: monotonicity failed at #1';
    expect(parseStackTrace(junitFailure, { testName: 'TestVersion7Monotonicity' })).toMatchObject([
      { file: 'uuid_test.go', line: 893, function: 'TestVersion7Monotonicity' },
    ]);
    expect(parseStackTrace(junitFailure)[0]?.function).toBeNull();
  });

  it('marks pkg/mod dependencies as library', () => {
    const locations = parseStackTrace(MODULE_CACHE);
    expect(locations[1]).toMatchObject({
      file: '/home/runner/go/pkg/mod/github.com/jackc/pgx/v5@v5.5.5/conn.go',
      function: 'v5.(*Conn).Query',
      library: true,
    });
  });
});
