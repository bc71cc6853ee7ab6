import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../scraper/stack/index.ts';

describe('detectLanguage', () => {
  it.each([
    [
      'java',
      'java.lang.IllegalStateException: bad amount: x12\n\tat com.example.billing.Invoice.parseAmount(Invoice.java:21)\n\t... 3 more',
    ],
    ['java', '\tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)'],
    [
      'python',
      'Traceback (most recent call last):\n  File "/w/shop/cart.py", line 10, in add\n    raise ValueError()',
    ],
    ['python', 'tests/test_cart.py:13: in test_negative_qty\n    c.add("a", -1)\nE   ValueError: qty'],
    ['go', 'goroutine 1 [running]:\nmain.main()\n\t/tmp/shop/main.go:21 +0x3b'],
    ['go', '=== RUN   TestTotal\n    cart_test.go:10: expected 3, got 2\n--- FAIL: TestTotal (0.00s)'],
    ['javascript', 'RangeError: x\n    at Cart.add (/w/src/cart.cjs:5:25)\n    at new Promise (<anonymous>)'],
    ['javascript', 'Error: config unreadable\n ❯ readConfig src/config.ts:5:11\n ❯ test/cause.test.ts:3:28'],
    [
      'javascript',
      'add@http://localhost:5173/src/cart.js:4:25\nglobal code@http://localhost:5173/src/app.js:7:48',
    ],
  ])('%s: %s', (language, trace) => {
    expect(detectLanguage(trace)).toBe(language);
  });

  it.each([
    '',
    'expected 3 but was 2',
    'Look at least 3 items (see docs)',
    '{"status":"failed","message":"timeout"}',
    'user@example.com wrote: see line 4',
    'Error: connect ECONNREFUSED 127.0.0.1:5432',
  ])('unknown: %j', (trace) => {
    expect(detectLanguage(trace)).toBe('unknown');
  });
});
