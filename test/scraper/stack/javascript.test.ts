import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../../scraper/stack/index.ts';
import { itFindsRoles, type TraceCase } from './helpers.ts';

/** Printed by real runs here: Node 20, vitest 4.1 (+ allure-vitest 3.12), Chromium via playwright-core. */
const NODE_SYNC = `RangeError: qty must be positive, got -1
    at Cart.add (/tmp/stackgen/node/src/cart.cjs:5:25)
    at /tmp/stackgen/node/src/cart.cjs:8:50
    at Object.each (/tmp/stackgen/node/node_modules/fake-lib/index.js:1:64)
    at Cart.addAll (/tmp/stackgen/node/src/cart.cjs:8:22)
    at main (/tmp/stackgen/node/src/cart.test.cjs:4:36)
    at Object.<anonymous> (/tmp/stackgen/node/src/cart.test.cjs:7:1)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)
    at Module.load (node:internal/modules/cjs/loader:1266:32)
    at Module._load (node:internal/modules/cjs/loader:1091:12)`;

const NODE_ASYNC = `SyntaxError: Expected property name or '}' in JSON at position 1
    at JSON.parse (<anonymous>)
    at Cart.loadRemote (/tmp/stackgen/node/src/cart.cjs:11:17)
    at async main (/tmp/stackgen/node/src/cart.test.cjs:5:26)`;

const NODE_CAUSE = `Error: config unreadable
    at parse (file:///tmp/stackgen/node/src/config.mjs:1:69)
    at file:///tmp/stackgen/node/src/config.mjs:2:7
    ... 2 lines matching cause stack trace ...
    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5) {
  [cause]: SyntaxError: Expected property name or '}' in JSON at position 1
      at JSON.parse (<anonymous>)
      at parse (file:///tmp/stackgen/node/src/config.mjs:1:39)
      at file:///tmp/stackgen/node/src/config.mjs:2:7
      at ModuleJob.run (node:internal/modules/esm/module_job:325:25)
      at async ModuleLoader.import (node:internal/modules/esm/loader:606:24)
      at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:117:5)
}`;

/** allure-vitest records the raw V8 stack; its expect wrappers sit on top. */
const ALLURE_ASSERTION = `AssertionError: expected 2 to be 3 // Object.is equality
    at file:///work/main/node_modules/allure-vitest/dist/matchers.js:353:170
    at runWithNestedMatcherStepsSuppressed (file:///work/main/node_modules/allure-vitest/dist/matchers.js:279:24)
    at file:///work/main/node_modules/allure-vitest/dist/matchers.js:353:106
    at runMatcherStep (file:///work/main/node_modules/allure-vitest/dist/matchers.js:319:24)
    at Proxy.<anonymous> (file:///work/main/node_modules/allure-vitest/dist/matchers.js:353:16)
    at /tmp/stackgen/vt/test/cart.test.ts:9:26
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:302:11
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:1903:26
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:2326:20
    at new Promise (<anonymous>)`;

const ALLURE_STEP_ASSERTION = `AssertionError: expected 2 to be 5 // Object.is equality
    at file:///work/main/node_modules/allure-vitest/dist/matchers.js:353:170
    at runWithNestedMatcherStepsSuppressed (file:///work/main/node_modules/allure-vitest/dist/matchers.js:279:24)
    at file:///work/main/node_modules/allure-vitest/dist/matchers.js:353:106
    at runMatcherStep (file:///work/main/node_modules/allure-vitest/dist/matchers.js:319:24)
    at Proxy.<anonymous> (file:///work/main/node_modules/allure-vitest/dist/matchers.js:353:16)
    at /tmp/stackgen/vt/test/steps.test.ts:9:26
    at file:///work/main/node_modules/allure-js-commons/dist/esm/facade.js:106:48
    at file:///work/main/node_modules/allure-js-commons/dist/esm/sdk/runtime/MessageTestRuntime.js:241:28
    at Generator.next (<anonymous>)
    at asyncGeneratorStep (file:///work/main/node_modules/allure-js-commons/dist/esm/sdk/runtime/MessageTestRuntime.js:3:70)`;

const ALLURE_THROW = `RangeError: qty must be positive, got 0
    at Cart.add (/tmp/stackgen/vt/src/cart.ts:6:13)
    at /tmp/stackgen/vt/test/cart.test.ts:14:10
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:302:11
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:1903:26
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:2326:20
    at new Promise (<anonymous>)
    at runWithCancel (file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:2323:10)
    at file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:2305:20
    at new Promise (<anonymous>)
    at runWithTimeout (file:///work/main/node_modules/@vitest/runner/dist/chunk-artifact.js:2272:10)`;

const ALLURE_ASYNC = `RangeError: qty must be positive, got -5
    at Cart.add (/tmp/stackgen/vt/src/cart.ts:6:13)
    at /tmp/stackgen/vt/test/cart.test.ts:20:10
    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`;

/** vitest's own console/JUnit rendering with code frames. */
const VITEST_ASSERTION = ` FAIL  test/cart.test.ts > Cart > sums quantities
AssertionError: expected 2 to be 3 // Object.is equality

- Expected
+ Received

- 3
+ 2

 ❯ test/cart.test.ts:9:26
      7|     cart.add('a', 1);
      8|     cart.add('b', 1);
      9|     expect(cart.total()).toBe(3);
       |                          ^
     10|   });
     11|`;

const VITEST_THROW = ` FAIL  test/cart.test.ts > Cart > rejects zero quantity
RangeError: qty must be positive, got 0
 ❯ Cart.add src/cart.ts:6:13
      4|   add(sku: string, qty: number): void {
      5|     if (qty <= 0) {
      6|       throw new RangeError(\`qty must be positive, got \${qty}\`);
       |             ^
      7|     }
      8|     this.items.push([sku, qty]);
 ❯ test/cart.test.ts:14:10`;

const VITEST_CAUSE = ` FAIL  test/cause.test.ts > reads config
Error: config unreadable
 ❯ readConfig src/config.ts:5:11
      3|     return JSON.parse(text);
      4|   } catch (e) {
      5|     throw new Error('config unreadable', { cause: e });
       |           ^
      6|   }
      7| }
 ❯ test/cause.test.ts:3:28

Caused by: SyntaxError: Expected property name or '}' in JSON at position 1
 ❯ readConfig src/config.ts:3:17
 ❯ test/cause.test.ts:3:28`;

const VITEST_ALLURE_STEP = ` FAIL  test/steps.test.ts > total inside a step
AssertionError: expected 2 to be 5 // Object.is equality

- Expected
+ Received

- 5
+ 2

 ❯ ../../../work/main/node_modules/allure-vitest/src/matchers.ts:510:70
 ❯ runWithNestedMatcherStepsSuppressed ../../../work/main/node_modules/allure-vitest/src/matchers.ts:395:19
 ❯ ../../../work/main/node_modules/allure-vitest/src/matchers.ts:510:6
 ❯ runMatcherStep ../../../work/main/node_modules/allure-vitest/src/matchers.ts:461:19
 ❯ Proxy.<anonymous> ../../../work/main/node_modules/allure-vitest/src/matchers.ts:509:11
 ❯ test/steps.test.ts:9:26
      7|     const cart = new Cart();
      8|     cart.add('a', 2);
      9|     expect(cart.total()).toBe(5);
       |                          ^
     10|   });
     11| });
 ❯ body ../../../work/main/node_modules/allure-js-commons/src/facade.ts:134:47
 ❯ body ../../../work/main/node_modules/allure-js-commons/src/sdk/runtime/MessageTestRuntime.ts:210:27
 ❯ asyncGeneratorStep ../../../work/main/node_modules/allure-js-commons/dist/esm/sdk/runtime/MessageTestRuntime.js:3:70`;

const CHROMIUM = `RangeError: qty must be positive, got 0
    at Cart.add (http://localhost:5173/src/cart.js:4:25)
    at HTMLButtonElement.onCheckout (http://localhost:5173/src/app.js?v=3:4:8)
    at http://localhost:5173/src/app.js?v=3:7:48
---
page.evaluate: TypeError: Cannot read properties of null (reading 'x')
    at inner (eval at evaluate (:370:30), <anonymous>:1:33)
    at eval (eval at evaluate (:370:30), <anonymous>:1:38)
    at UtilityScript.evaluate (<anonymous>:372:16)
    at UtilityScript.<anonymous> (<anonymous>:1:44)
    at /tmp/stackgen/browser/run.mjs:16:18`;

/** Firefox and Safari print `fn@url:line:col` (no message line in Firefox). Shapes as the engines document them. */
const FIREFOX = `add@http://localhost:5173/src/cart.js:4:25
onCheckout@http://localhost:5173/src/app.js?v=3:4:8
EventListener.handleEvent*@http://localhost:5173/src/app.js?v=3:6:33
async*init@http://localhost:5173/node_modules/.vite/deps/vue.js?v=9a1b:120:7`;

const SAFARI = `add@http://localhost:5173/src/cart.js:4:34
onCheckout@http://localhost:5173/src/app.js:4:11
dispatchEvent@[native code]
global code@http://localhost:5173/src/app.js:7:48`;

/** Mocha under webpack with source maps, and Node on a Windows runner. */
const WEBPACK = `TypeError: Cannot read properties of undefined (reading 'price')
    at lineTotal (webpack://shop-ui/./src/cart/lineTotal.ts:7:22)
    at Array.map (<anonymous>)
    at cartTotal (webpack://shop-ui/./src/cart/cartTotal.ts:4:30)
    at Context.<anonymous> (webpack://shop-ui/./src/cart/__tests__/cartTotal.spec.ts:12:12)
    at webpack://shop-ui/./node_modules/mocha/lib/runnable.js:366:21`;

const WINDOWS_NODE = `RangeError: qty must be positive, got 0
    at Cart.add (file:///C:/ci/ws/src/cart.js:5:25)
    at file:///C:/ci/ws/test/cart.spec.mjs:4:18
    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)`;

type Case = TraceCase;

const cases: Case[] = [
  {
    name: 'Node: throw in project code through a node_modules callback',
    trace: NODE_SYNC,
    failure: {
      file: '/tmp/stackgen/node/src/cart.cjs',
      line: 5,
      column: 25,
      function: 'Cart.add',
      frame_index: 0,
    },
    test: {
      file: '/tmp/stackgen/node/src/cart.test.cjs',
      line: 7,
      column: 1,
      function: 'Object.<anonymous>',
      frame_index: 5,
    },
  },
  {
    name: 'Node: async frames, built-in JSON.parse on top',
    trace: NODE_ASYNC,
    failure: {
      file: '/tmp/stackgen/node/src/cart.cjs',
      line: 11,
      column: 17,
      function: 'Cart.loadRemote',
      frame_index: 1,
    },
    test: {
      file: '/tmp/stackgen/node/src/cart.test.cjs',
      line: 5,
      column: 26,
      function: 'main',
      frame_index: 2,
    },
  },
  {
    name: 'Node: inspected error with [cause]: the root cause holds the failure',
    trace: NODE_CAUSE,
    failure: {
      file: '/tmp/stackgen/node/src/config.mjs',
      line: 1,
      column: 39,
      function: 'parse',
      frame_index: 4,
    },
    test: null,
  },
  {
    name: 'allure-vitest: expect wrapped in node_modules, assertion in the test',
    trace: ALLURE_ASSERTION,
    failure: null,
    test: { file: '/tmp/stackgen/vt/test/cart.test.ts', line: 9, column: 26, function: null, frame_index: 5 },
  },
  {
    name: 'allure-vitest: assertion inside allure.step',
    trace: ALLURE_STEP_ASSERTION,
    hints: { testName: 'total inside a step', testFullName: 'vt:test/steps.test.ts#total inside a step' },
    failure: null,
    test: {
      file: '/tmp/stackgen/vt/test/steps.test.ts',
      line: 9,
      column: 26,
      function: null,
      frame_index: 5,
    },
  },
  {
    name: 'allure-vitest: error thrown by the code under test',
    trace: ALLURE_THROW,
    failure: {
      file: '/tmp/stackgen/vt/src/cart.ts',
      line: 6,
      column: 13,
      function: 'Cart.add',
      frame_index: 0,
    },
    test: {
      file: '/tmp/stackgen/vt/test/cart.test.ts',
      line: 14,
      column: 10,
      function: null,
      frame_index: 1,
    },
  },
  {
    name: 'allure-vitest: async test',
    trace: ALLURE_ASYNC,
    failure: {
      file: '/tmp/stackgen/vt/src/cart.ts',
      line: 6,
      column: 13,
      function: 'Cart.add',
      frame_index: 0,
    },
    test: {
      file: '/tmp/stackgen/vt/test/cart.test.ts',
      line: 20,
      column: 10,
      function: null,
      frame_index: 1,
    },
  },
  {
    name: 'vitest code frame: assertion, snippet from the excerpt',
    trace: VITEST_ASSERTION,
    failure: null,
    test: {
      file: 'test/cart.test.ts',
      line: 9,
      column: 26,
      function: null,
      snippet: 'expect(cart.total()).toBe(3);',
      frame_index: 0,
    },
  },
  {
    name: 'vitest code frame: throw in src, excerpt belongs to that frame only',
    trace: VITEST_THROW,
    failure: {
      file: 'src/cart.ts',
      line: 6,
      column: 13,
      function: 'Cart.add',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected snippet is source text quoting a template literal
      snippet: 'throw new RangeError(`qty must be positive, got ${qty}`);',
      frame_index: 0,
    },
    test: { file: 'test/cart.test.ts', line: 14, column: 10, function: null, snippet: null, frame_index: 1 },
  },
  {
    name: 'vitest Caused by: failure from the cause',
    trace: VITEST_CAUSE,
    failure: {
      file: 'src/config.ts',
      line: 3,
      column: 17,
      function: 'readConfig',
      snippet: null,
      frame_index: 2,
    },
    test: { file: 'test/cause.test.ts', line: 3, column: 28, function: null, frame_index: 3 },
  },
  {
    name: 'vitest code frame under allure-vitest: relative node_modules frames are library',
    trace: VITEST_ALLURE_STEP,
    failure: null,
    test: {
      file: 'test/steps.test.ts',
      line: 9,
      column: 26,
      function: null,
      snippet: 'expect(cart.total()).toBe(5);',
      frame_index: 5,
    },
  },
  {
    name: 'Chromium: http URLs become web paths',
    trace: CHROMIUM,
    failure: { file: 'src/cart.js', line: 4, column: 25, function: 'Cart.add', frame_index: 0 },
    test: null,
  },
  {
    name: 'Firefox: fn@url, async* and handler* prefixes',
    trace: FIREFOX,
    failure: { file: 'src/cart.js', line: 4, column: 25, function: 'add', frame_index: 0 },
    test: null,
  },
  {
    name: 'Safari: global code and [native code]',
    trace: SAFARI,
    failure: { file: 'src/cart.js', line: 4, column: 34, function: 'add', frame_index: 0 },
    test: null,
  },
  {
    name: 'webpack:// URLs and a __tests__ spec',
    trace: WEBPACK,
    failure: { file: 'src/cart/lineTotal.ts', line: 7, column: 22, function: 'lineTotal', frame_index: 0 },
    test: {
      file: 'src/cart/__tests__/cartTotal.spec.ts',
      line: 12,
      column: 12,
      function: 'Context.<anonymous>',
      frame_index: 3,
    },
  },
  {
    name: 'file:///C:/ URLs on Windows',
    trace: WINDOWS_NODE,
    failure: { file: 'ci/ws/src/cart.js', line: 5, column: 25, function: 'Cart.add', frame_index: 0 },
    test: { file: 'ci/ws/test/cart.spec.mjs', line: 4, column: 18, function: null, frame_index: 1 },
  },
];

describe('JavaScript stack traces', () => {
  itFindsRoles(cases, 'javascript');

  it('marks node:, node_modules and <anonymous> frames as library', () => {
    const locations = parseStackTrace(NODE_SYNC);
    expect(locations.map((l) => l.library)).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect(locations[6]).toMatchObject({ file: 'node:internal/modules/cjs/loader', line: 1521, column: 14 });
    expect(parseStackTrace(NODE_ASYNC)[0]).toMatchObject({ file: '<anonymous>', line: null, library: true });
  });

  it('keeps every allure-vitest wrapper frame as library', () => {
    const locations = parseStackTrace(ALLURE_STEP_ASSERTION);
    expect(locations.slice(0, 5).every((l) => l.library)).toBe(true);
    expect(locations[0]?.file).toBe('/work/main/node_modules/allure-vitest/dist/matchers.js');
    expect(locations[0]?.raw_file).toBe('file:///work/main/node_modules/allure-vitest/dist/matchers.js');
  });

  it('strips the query from browser URLs and records the original', () => {
    const frame = parseStackTrace(CHROMIUM)[1];
    expect(frame).toMatchObject({
      file: 'src/app.js',
      raw_file: 'http://localhost:5173/src/app.js?v=3',
      function: 'HTMLButtonElement.onCheckout',
      role: 'frame',
    });
  });

  it('reads eval frames from the evaluated code location', () => {
    const frame = parseStackTrace(CHROMIUM)[3];
    expect(frame).toMatchObject({
      file: '<anonymous>',
      line: 1,
      column: 33,
      function: 'inner',
      library: true,
    });
  });

  it('keeps Node frames after the "... lines matching cause" marker and ` {`', () => {
    const locations = parseStackTrace(NODE_CAUSE);
    expect(locations).toHaveLength(9);
    expect(locations[2]).toMatchObject({ file: 'node:internal/modules/run_main', line: 117, library: true });
  });

  it('parses Firefox vendor bundles as library', () => {
    const locations = parseStackTrace(FIREFOX);
    expect(locations[2]).toMatchObject({ function: null, file: 'src/app.js', line: 6 });
    expect(locations[3]).toMatchObject({
      function: 'init',
      file: 'node_modules/.vite/deps/vue.js',
      library: true,
    });
  });

  it('accepts a project prefix that is a path fragment', () => {
    const locations = parseStackTrace(NODE_SYNC, { projectPrefixes: ['lib/'] });
    expect(locations.filter((l) => l.role === 'failure')).toEqual([]);
  });
});
