import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../../scraper/stack/index.ts';
import { expectRole, itFindsRoles, type TraceCase } from './helpers.ts';

/** Traces printed by real runs here (CPython 3.11, pytest 9.2) on a small `shop` package. */
const PLAIN_VALUEERROR = `Traceback (most recent call last):
  File "/tmp/stackgen/py/run_plain.py", line 4, in <module>
    getattr(test_cart, sys.argv[1])()
  File "/tmp/stackgen/py/tests/test_cart.py", line 13, in test_negative_qty
    c.add("a", -1)
  File "/tmp/stackgen/py/shop/cart.py", line 10, in add
    raise ValueError(f"qty must be positive, got {qty}")
ValueError: qty must be positive, got -1`;

const PLAIN_ASSERTION = `Traceback (most recent call last):
  File "/tmp/stackgen/py/run_plain.py", line 4, in <module>
    getattr(test_cart, sys.argv[1])()
  File "/tmp/stackgen/py/tests/test_cart.py", line 8, in test_total
    assert c.total() == 4
           ^^^^^^^^^^^^^^
AssertionError`;

const PLAIN_DIRECT_CAUSE = `Traceback (most recent call last):
  File "/tmp/stackgen/py/shop/cart.py", line 18, in load
    data = json.loads(text)
           ^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/tmp/stackgen/py/run_plain.py", line 4, in <module>
    getattr(test_cart, sys.argv[1])()
  File "/tmp/stackgen/py/tests/test_cart.py", line 17, in test_load_bad_json
    Cart().load("{not json")
  File "/tmp/stackgen/py/shop/cart.py", line 20, in load
    raise RuntimeError("cannot load cart") from e
RuntimeError: cannot load cart`;

const PLAIN_DURING_HANDLING = `Traceback (most recent call last):
  File "/tmp/stackgen/py/shop/cart.py", line 26, in load_implicit
    data = json.loads(text)
           ^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 353, in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/tmp/stackgen/py/run_plain.py", line 4, in <module>
    getattr(test_cart, sys.argv[1])()
  File "/tmp/stackgen/py/tests/test_cart.py", line 21, in test_load_implicit
    Cart().load_implicit("{not json")
  File "/tmp/stackgen/py/shop/cart.py", line 28, in load_implicit
    raise RuntimeError("cannot load cart")
RuntimeError: cannot load cart`;

/** pytest's default (long) format, as the JUnit XML `<failure>` text carries it. */
const PYTEST_LONG_ASSERTION = `def test_total():
        c = Cart()
        c.add("a", 1)
        c.add("b", 2)
>       assert c.total() == 4
E       assert 3 == 4
E        +  where 3 = total()
E        +    where total = <shop.cart.Cart object at 0x7f566dc9f150>.total

tests/test_cart.py:8: AssertionError`;

const PYTEST_LONG_VALUEERROR = `def test_negative_qty():
        c = Cart()
>       c.add("a", -1)

tests/test_cart.py:13: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <shop.cart.Cart object at 0x7f566dc96690>, sku = 'a', qty = -1

    def add(self, sku, qty):
        if qty <= 0:
>           raise ValueError(f"qty must be positive, got {qty}")
E           ValueError: qty must be positive, got -1

shop/cart.py:10: ValueError`;

const PYTEST_LONG_CHAINED = `self = <shop.cart.Cart object at 0x7f566dcba650>, text = '{not json'

    def load(self, text):
        try:
>           data = json.loads(text)
                   ^^^^^^^^^^^^^^^^

shop/cart.py:18: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 
/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py:346: in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py:337: in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <json.decoder.JSONDecoder object at 0x7f566e64ba90>, s = '{not json'
idx = 0

    def raw_decode(self, s, idx=0):
        """Decode a JSON document from \`\`s\`\` (a \`\`str\`\` beginning with
        a JSON document) and return a 2-tuple of the Python
        representation and the index in \`\`s\`\` where the document ended.
    
        This can be used to decode a JSON document from a string that may
        have extraneous data at the end.
    
        """
        try:
>           obj, end = self.scan_once(s, idx)
                       ^^^^^^^^^^^^^^^^^^^^^^
E           json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)

/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py:353: JSONDecodeError

The above exception was the direct cause of the following exception:

    def test_load_bad_json():
>       Cart().load("{not json")

tests/test_cart.py:17: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ 

self = <shop.cart.Cart object at 0x7f566dcba650>, text = '{not json'

    def load(self, text):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
>           raise RuntimeError("cannot load cart") from e
E           RuntimeError: cannot load cart

shop/cart.py:20: RuntimeError`;

const PYTEST_SHORT_VALUEERROR = `tests/test_cart.py:13: in test_negative_qty
    c.add("a", -1)
shop/cart.py:10: in add
    raise ValueError(f"qty must be positive, got {qty}")
E   ValueError: qty must be positive, got -1`;

const PYTEST_SHORT_CHAINED = `shop/cart.py:26: in load_implicit
    data = json.loads(text)
           ^^^^^^^^^^^^^^^^
/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py:346: in loads
    return _default_decoder.decode(s)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^
/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py:337: in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py:353: in raw_decode
    obj, end = self.scan_once(s, idx)
               ^^^^^^^^^^^^^^^^^^^^^^
E   json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)

During handling of the above exception, another exception occurred:
tests/test_cart.py:21: in test_load_implicit
    Cart().load_implicit("{not json")
shop/cart.py:28: in load_implicit
    raise RuntimeError("cannot load cart")
E   RuntimeError: cannot load cart`;

/** `--tb=line` for one test. */
const PYTEST_LINE = `E   ValueError: qty must be positive, got -1
/tmp/stackgen/py/shop/cart.py:10: ValueError: qty must be positive, got -1`;

/** A Windows runner: backslash paths, drive letter, venv site-packages. */
const WINDOWS = `Traceback (most recent call last):
  File "C:\\ci\\ws\\tests\\test_prices.py", line 9, in test_rounding
    assert_price(round_price(2.675), 2.68)
  File "C:\\ci\\ws\\shop\\prices.py", line 4, in round_price
    return Decimal(value).quantize(CENT, rounding=ROUNDING)
  File "C:\\ci\\ws\\.venv\\Lib\\site-packages\\decimalx\\core.py", line 88, in quantize
    raise InvalidOperation(value)
decimalx.InvalidOperation: 2.675`;

type Case = TraceCase;

const cases: Case[] = [
  {
    name: 'plain traceback: raise in project code called from the test',
    trace: PLAIN_VALUEERROR,
    failure: {
      file: '/tmp/stackgen/py/shop/cart.py',
      line: 10,
      function: 'add',
      snippet: 'raise ValueError(f"qty must be positive, got {qty}")',
      frame_index: 2,
    },
    test: {
      file: '/tmp/stackgen/py/tests/test_cart.py',
      line: 13,
      function: 'test_negative_qty',
      snippet: 'c.add("a", -1)',
      frame_index: 1,
    },
  },
  {
    name: 'plain traceback: bare assert fails in the test, the runner above is not the failure',
    trace: PLAIN_ASSERTION,
    failure: null,
    test: {
      file: '/tmp/stackgen/py/tests/test_cart.py',
      line: 8,
      function: 'test_total',
      snippet: 'assert c.total() == 4',
      frame_index: 1,
    },
  },
  {
    name: '"direct cause" chain: failure is the innermost project frame of the root cause',
    trace: PLAIN_DIRECT_CAUSE,
    failure: {
      file: '/tmp/stackgen/py/shop/cart.py',
      line: 18,
      function: 'load',
      snippet: 'data = json.loads(text)',
      frame_index: 0,
    },
    test: {
      file: '/tmp/stackgen/py/tests/test_cart.py',
      line: 17,
      function: 'test_load_bad_json',
      frame_index: 5,
    },
  },
  {
    name: '"during handling" chain: same rule, root exception first',
    trace: PLAIN_DURING_HANDLING,
    hints: { testName: 'test_load_implicit', testFile: 'tests/test_cart.py' },
    failure: { file: '/tmp/stackgen/py/shop/cart.py', line: 26, function: 'load_implicit', frame_index: 0 },
    test: {
      file: '/tmp/stackgen/py/tests/test_cart.py',
      line: 21,
      function: 'test_load_implicit',
      frame_index: 5,
    },
  },
  {
    name: 'pytest long: assertion in the test, function from the def line, snippet from ">"',
    trace: PYTEST_LONG_ASSERTION,
    failure: null,
    test: {
      file: 'tests/test_cart.py',
      line: 8,
      function: 'test_total',
      snippet: 'assert c.total() == 4',
      frame_index: 0,
    },
  },
  {
    name: 'pytest long: ValueError raised in project code',
    trace: PYTEST_LONG_VALUEERROR,
    hints: { testFullName: 'tests/test_cart.py::test_negative_qty' },
    failure: {
      file: 'shop/cart.py',
      line: 10,
      function: 'add',
      snippet: 'raise ValueError(f"qty must be positive, got {qty}")',
      frame_index: 1,
    },
    test: {
      file: 'tests/test_cart.py',
      line: 13,
      function: 'test_negative_qty',
      snippet: 'c.add("a", -1)',
      frame_index: 0,
    },
  },
  {
    name: 'pytest long: chained exception with short-style stdlib entries in between',
    trace: PYTEST_LONG_CHAINED,
    failure: {
      file: 'shop/cart.py',
      line: 18,
      function: 'load',
      snippet: 'data = json.loads(text)',
      frame_index: 0,
    },
    test: {
      file: 'tests/test_cart.py',
      line: 17,
      function: 'test_load_bad_json',
      snippet: 'Cart().load("{not json")',
      frame_index: 4,
    },
  },
  {
    name: 'pytest --tb=short',
    trace: PYTEST_SHORT_VALUEERROR,
    failure: {
      file: 'shop/cart.py',
      line: 10,
      function: 'add',
      snippet: 'raise ValueError(f"qty must be positive, got {qty}")',
      frame_index: 1,
    },
    test: { file: 'tests/test_cart.py', line: 13, function: 'test_negative_qty', frame_index: 0 },
  },
  {
    name: 'pytest --tb=short with "During handling"',
    trace: PYTEST_SHORT_CHAINED,
    failure: {
      file: 'shop/cart.py',
      line: 26,
      function: 'load_implicit',
      snippet: 'data = json.loads(text)',
      frame_index: 0,
    },
    test: { file: 'tests/test_cart.py', line: 21, function: 'test_load_implicit', frame_index: 4 },
  },
  {
    name: 'pytest --tb=line: location only',
    trace: PYTEST_LINE,
    failure: {
      file: '/tmp/stackgen/py/shop/cart.py',
      line: 10,
      function: null,
      snippet: null,
      frame_index: 0,
    },
    test: null,
  },
  {
    name: 'Windows paths: drive stripped, site-packages is library',
    trace: WINDOWS,
    failure: {
      file: 'ci/ws/shop/prices.py',
      line: 4,
      function: 'round_price',
      snippet: 'return Decimal(value).quantize(CENT, rounding=ROUNDING)',
      frame_index: 1,
    },
    test: { file: 'ci/ws/tests/test_prices.py', line: 9, function: 'test_rounding', frame_index: 0 },
  },
];

describe('Python stack traces', () => {
  itFindsRoles(cases, 'python');

  it('marks the stdlib of a pyenv interpreter as library and keeps its source lines', () => {
    const locations = parseStackTrace(PLAIN_DIRECT_CAUSE);
    expect(locations).toHaveLength(7);
    expect(locations[1]).toMatchObject({
      file: '/root/.pyenv/versions/3.11.7/lib/python3.11/json/__init__.py',
      line: 346,
      function: 'loads',
      snippet: 'return _default_decoder.decode(s)',
      library: true,
    });
    expect(locations[4]).toMatchObject({
      file: '/tmp/stackgen/py/run_plain.py',
      function: '<module>',
      role: 'frame',
    });
  });

  it('does not take the ^^^ marker line as a snippet', () => {
    const locations = parseStackTrace(PYTEST_SHORT_CHAINED);
    expect(locations.map((l) => l.snippet)).not.toContain('^^^^^^^^^^^^^^^^');
    expect(locations[1]?.snippet).toBe('return _default_decoder.decode(s)');
  });

  it('keeps the Windows original as raw_file', () => {
    const locations = parseStackTrace(WINDOWS);
    expect(locations[0]?.raw_file).toBe('C:\\ci\\ws\\tests\\test_prices.py');
    expect(locations[2]).toMatchObject({
      file: 'ci/ws/.venv/Lib/site-packages/decimalx/core.py',
      library: true,
    });
  });

  it('uses the hint to pick the test frame when a helper also looks like a test', () => {
    const trace = `Traceback (most recent call last):
  File "/w/tests/test_orders.py", line 30, in test_refund
    check_refund(order)
  File "/w/tests/test_orders.py", line 12, in check_refund
    assert order.refunded
AssertionError`;
    const locations = parseStackTrace(trace, { testName: 'test_refund[card]' });
    expectRole(locations, 'test', {
      file: '/w/tests/test_orders.py',
      line: 30,
      function: 'test_refund',
      frame_index: 0,
    });
    expectRole(locations, 'failure', null);
  });
});
