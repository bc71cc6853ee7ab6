import { describe, expect, it } from 'vitest';
import type { CodeLanguage, CodeSpan } from '../../../src/locate/anchor/index.ts';
import { fixture, fn, useParser } from './helpers.ts';

interface Case {
  file: string;
  language: CodeLanguage;
  expected: CodeSpan[];
}

const cases: Case[] = [
  {
    // Inner classes, a constructor with an annotation, a static initializer, a lambda (no span:
    // it belongs to `total`), an anonymous class, an interface default method, enum, record.
    file: 'Invoice.java',
    language: 'java',
    expected: [
      fn('initializer', 'Invoice.<clinit>', 10, 12),
      fn('constructor', 'Invoice.<init>', 16, 19),
      fn('method', 'Invoice.total', 21, 25),
      fn('method', 'Invoice.parseAmount', 27, 35),
      fn('method', 'Invoice.compare', 29, 32),
      fn('constructor', 'Invoice.Pricer.<init>', 38, 38),
      fn('method', 'Invoice.Pricer.price', 40, 45),
      fn('method', 'Invoice.Rounding.roundHalfUp', 51, 53),
      fn('method', 'Invoice.Currency.symbol', 59, 61),
      fn('constructor', 'Invoice.Line.<init>', 65, 67),
    ],
  },
  {
    // Nested functions, a nested class, decorators (part of the span), async def, a lambda.
    file: 'inventory.py',
    language: 'python',
    expected: [
      fn('function', 'retry', 9, 20),
      fn('function', 'decorate', 10, 19, 'retry.decorate'),
      fn('function', 'wrapper', 11, 18, 'retry.decorate.wrapper'),
      fn('method', '__init__', 25, 27, 'Inventory.Item.__init__'),
      fn('method', '__init__', 29, 30, 'Inventory.__init__'),
      fn('method', 'skus', 32, 34, 'Inventory.skus'),
      fn('method', 'reload', 36, 39, 'Inventory.reload'),
      fn('method', 'unit_size', 41, 43, 'Inventory.unit_size'),
      fn('function', 'test_reorder_report_includes_skus_at_reorder_point', 46, 49),
    ],
  },
  {
    // Class with constructor, decorated method, getter, arrow field, private static method;
    // abstract and interface signatures (no span); arrow const; nested function; object
    // literal methods; titled test callbacks.
    file: 'cart.ts.txt',
    language: 'typescript',
    expected: [
      fn('constructor', 'Cart.constructor', 14, 14),
      fn('method', 'Cart.add', 16, 20),
      fn('method', 'Cart.total', 22, 24),
      fn('method', 'Cart.onCheckout', 26, 28),
      fn('method', 'Cart.#audit', 30, 32),
      fn('function', 'lineTotal', 35, 36),
      fn('function', 'formatPrice', 38, 43),
      fn('function', 'pad', 39, 41, 'formatPrice.pad'),
      fn('method', 'api.load', 46, 48),
      fn('method', 'api.save', 49, 51),
      fn('callback', 'describe("Cart")', 54, 59),
      fn('callback', 'it("adds two items")', 55, 58, 'describe("Cart") > it("adds two items")'),
    ],
  },
  {
    // A component, an arrow inside it, a named function expression passed to memo (an
    // anonymous one passed to useCallback gets no span), a class with an arrow field.
    file: 'App.tsx.txt',
    language: 'tsx',
    expected: [
      fn('function', 'App', 3, 9),
      fn('function', 'renderRow', 7, 7, 'App.renderRow'),
      fn('function', 'Row', 11, 13),
      fn('method', 'Checkout.handleSubmit', 16, 18),
      fn('method', 'Checkout.render', 20, 22),
    ],
  },
  {
    // ES5 constructor with `this.f = () => …`, prototype assignment, static and generator
    // methods, quoted object keys, CommonJS exports, a named IIFE.
    file: 'ledger.cjs.txt',
    language: 'javascript',
    expected: [
      fn('function', 'Ledger', 3, 8),
      fn('function', 'verify', 5, 7, 'Ledger.verify'),
      fn('method', 'Ledger.balance', 10, 12),
      fn('method', 'Account.open', 15, 17),
      fn('method', 'Account.history', 19, 21),
      fn('method', 'handlers.order.created', 25, 27),
      fn('method', 'handlers.refund', 28, 28),
      fn('function', 'reconcile', 31, 33),
      fn('function', 'summarize', 35, 35),
      fn('function', 'bootstrap', 37, 41),
    ],
  },
  {
    // Functions, pointer and value receivers, a generic receiver, closures (no span: they
    // belong to their function), subtests named as `go test` prints them.
    file: 'ledger.go',
    language: 'go',
    expected: [
      fn('function', 'New', 15, 17),
      fn('method', 'Ledger.Post', 19, 27),
      fn('method', 'Ledger.Balance', 29, 34),
      fn('method', 'Index.Lookup', 36, 39),
      fn('function', 'TestSplitFeeKeepsEveryCent', 41, 50),
      fn('callback', 'TestSplitFeeKeepsEveryCent/zero_fee', 42, 46),
      fn('callback', 'TestSplitFeeKeepsEveryCent/odd', 47, 49),
      fn('callback', 'TestSplitFeeKeepsEveryCent/odd/nested', 48, 48),
    ],
  },
  {
    // Top-level function, init block and secondary constructor (`<init>`), a local function
    // (`close$audit` on the JVM), an abstract function (no span), companion and object.
    file: 'OrderService.kt',
    language: 'kotlin',
    expected: [
      fn('function', 'requireOpen', 3, 5),
      fn('initializer', 'OrderService.<init>', 8, 10),
      fn('constructor', 'OrderService.<init>', 12, 12),
      fn('method', 'OrderService.close', 14, 21),
      fn('function', 'OrderService.close$audit', 15, 17),
      fn('method', 'OrderService.Companion.create', 26, 26),
      fn('method', 'Registry.lookup', 31, 31),
    ],
  },
];

describe('CodeParser.functions', () => {
  const parser = useParser();

  it.each(cases)('$language: $file', async ({ file, language, expected }) => {
    const spans = await parser().functions(fixture(file), language);

    expect(spans).toEqual(expected);
  });

  it.each<[CodeLanguage, string]>([
    ['java', ''],
    ['python', '# only a comment\nX = 1\n'],
    ['typescript', 'interface Priced { price(): number }\ntype Id = string;\n'],
    ['go', 'package main\n\nvar total = 3\n'],
  ])('%s without definitions: no spans (%j)', async (language, source) => {
    expect(await parser().functions(source, language)).toEqual([]);
  });

  it('names JavaScript class fields and class expressions by what holds them', async () => {
    const source =
      'class A {\n  handle = () => {\n  };\n  static make = function () {};\n  #secret = () => 1;\n}\nconst B = class {\n  m() {}\n};\n';

    expect(await parser().functions(source, 'javascript')).toEqual([
      fn('method', 'A.handle', 2, 3),
      fn('method', 'A.make', 4, 4),
      fn('method', 'A.#secret', 5, 5),
      fn('method', 'B.m', 8, 8),
    ]);
  });

  it('still finds the functions of a file with a syntax error', async () => {
    const source = 'def ok():\n    return 1\n\ndef broken(:\n    pass\n\ndef after():\n    return 2\n';

    const names = (await parser().functions(source, 'python')).map((s) => s.name);

    expect(names).toContain('ok');
    expect(names).toContain('after');
  });

  it('counts lines with CRLF endings like LF ones', async () => {
    const source = 'class A {\r\n  void m() {\r\n    run();\r\n  }\r\n}\r\n';

    expect(await parser().functions(source, 'java')).toEqual([fn('method', 'A.m', 2, 4)]);
  });
});
