import { describe, expect, it } from 'vitest';
import {
  byName,
  type CodeLanguage,
  type CodeSpan,
  parseFrameFunction,
} from '../../../src/locate/anchor/index.ts';
import type { FunctionSpan } from '../../../src/schemas/index.ts';
import { fixture, fn, useParser } from './helpers.ts';

interface Case {
  frame: string;
  /** `name@startLine` of each expected match, in file order. */
  expected: string[];
  language?: CodeLanguage;
}

/** Frame texts as the scraper keeps them (scraper/stack/*.ts and its tests), per fixture. */
const byFile: Record<string, { language: CodeLanguage; cases: Case[] }> = {
  'Invoice.java': {
    language: 'java',
    cases: [
      { frame: 'com.example.billing.Invoice.total', expected: ['Invoice.total@21'] },
      { frame: 'Invoice.total', expected: ['Invoice.total@21'] },
      { frame: 'com.example.billing.Invoice.lambda$total$0', expected: ['Invoice.total@21'] },
      { frame: 'com.example.billing.Invoice$Pricer.price', expected: ['Invoice.Pricer.price@40'] },
      { frame: 'Invoice$Pricer.<init>', expected: ['Invoice.Pricer.<init>@38'] },
      { frame: 'com.example.billing.Invoice.<init>', expected: ['Invoice.<init>@16'] },
      { frame: 'Invoice.lambda$new$0', expected: ['Invoice.<init>@16'] },
      { frame: 'Invoice.<clinit>', expected: ['Invoice.<clinit>@10'] },
      { frame: 'Invoice.lambda$static$1', expected: ['Invoice.<clinit>@10'] },
      { frame: 'com.example.billing.Invoice$1.compare', expected: ['Invoice.compare@29'] },
      { frame: 'Invoice$Currency.symbol', expected: ['Invoice.Currency.symbol@59'] },
      { frame: 'Invoice$Line.<init>', expected: ['Invoice.Line.<init>@65'] },
      { frame: 'Invoice$Rounding.roundHalfUp', expected: ['Invoice.Rounding.roundHalfUp@51'] },
      { frame: 'com.example.billing.Receipt.total', expected: [] },
      { frame: 'Invoice.access$000', expected: [] },
      { frame: 'Invoice$Pricer.total', expected: [] },
    ],
  },
  'inventory.py': {
    language: 'python',
    cases: [
      { frame: 'unit_size', expected: ['unit_size@41'] },
      { frame: '__init__', expected: ['__init__@25', '__init__@29'] }, // ambiguous: both returned
      { frame: 'wrapper', expected: ['wrapper@11'] },
      { frame: 'Inventory.reload', expected: ['reload@36'] },
      {
        frame: 'test_reorder_report_includes_skus_at_reorder_point[2]',
        expected: ['test_reorder_report_includes_skus_at_reorder_point@46'],
      },
      { frame: '<module>', expected: [] },
      { frame: '<lambda>', expected: [] },
      { frame: '<listcomp>', expected: [] },
      { frame: 'restock', expected: [] },
    ],
  },
  'cart.ts.txt': {
    language: 'typescript',
    cases: [
      { frame: 'Cart.add', expected: ['Cart.add@16'] },
      { frame: 'new Cart', expected: ['Cart.constructor@14'] },
      { frame: 'async formatPrice', expected: ['formatPrice@38'] },
      { frame: 'async Cart.onCheckout', expected: ['Cart.onCheckout@26'] },
      { frame: 'Cart.get total [as total]', expected: ['Cart.total@22'] },
      { frame: 'pad', expected: ['pad@39'] },
      { frame: 'Object.<anonymous>', expected: [] },
      { frame: 'Proxy.<anonymous>', expected: [] },
      { frame: 'Context.<anonymous>', expected: [] },
      // V8 prints the receiver's runtime class: with the language known, the method name decides.
      { frame: 'Object.load', expected: [] },
      { frame: 'Object.load', language: 'typescript', expected: ['api.load@46'] },
      { frame: 'SubCart.add', language: 'typescript', expected: ['Cart.add@16'] },
      { frame: 'Cart.remove', language: 'typescript', expected: [] },
    ],
  },
  'ledger.cjs.txt': {
    language: 'javascript',
    cases: [
      { frame: 'Ledger.verify', expected: ['verify@5'] },
      { frame: 'Ledger.balance', expected: ['Ledger.balance@10'] },
      { frame: 'new Ledger', expected: ['Ledger@3'] }, // an ES5 constructor function
      { frame: 'Function.open', language: 'javascript', expected: ['Account.open@15'] },
      { frame: 'Object.reconcile [as reconcile]', expected: ['reconcile@31'] },
      { frame: 'bootstrap', expected: ['bootstrap@37'] },
    ],
  },
  'ledger.go': {
    language: 'go',
    cases: [
      { frame: 'ledger.(*Ledger).Post', expected: ['Ledger.Post@19'] },
      { frame: 'main.(*Ledger).Post(0xc000010000, 0x2)', expected: ['Ledger.Post@19'] },
      { frame: 'ledger.(*Ledger).Post.func1', expected: ['Ledger.Post@19'] },
      { frame: 'ledger.(*Ledger).Post.deferwrap1', expected: ['Ledger.Post@19'] },
      { frame: 'ledger.Ledger.Balance', expected: ['Ledger.Balance@29'] },
      { frame: 'github.com/acme/shop/ledger.New', expected: ['New@15'] },
      { frame: 'ledger.(*Index[...]).Lookup', expected: ['Index.Lookup@36'] },
      { frame: 'ledger.TestSplitFeeKeepsEveryCent', expected: ['TestSplitFeeKeepsEveryCent@41'] },
      { frame: 'TestSplitFeeKeepsEveryCent/zero_fee', expected: ['TestSplitFeeKeepsEveryCent/zero_fee@42'] },
      {
        frame: 'TestSplitFeeKeepsEveryCent/odd/nested',
        expected: ['TestSplitFeeKeepsEveryCent/odd/nested@48'],
      },
      // A subtest whose t.Run title is not a literal: its test function still holds it.
      { frame: 'TestSplitFeeKeepsEveryCent/table_case_3', expected: ['TestSplitFeeKeepsEveryCent@41'] },
      { frame: 'ledger.glob..func1', expected: [] },
      { frame: 'ledger.(*Journal).Post', expected: [] },
    ],
  },
  'OrderService.kt': {
    language: 'kotlin',
    cases: [
      { frame: 'com.example.orders.OrderServiceKt.requireOpen', expected: ['requireOpen@3'] },
      { frame: 'OrderService.close', expected: ['OrderService.close@14'] },
      { frame: 'OrderService.close$audit', expected: ['OrderService.close$audit@15'] },
      { frame: 'OrderService.close$lambda$0', expected: ['OrderService.close@14'] },
      { frame: 'OrderService$Companion.create', expected: ['OrderService.Companion.create@26'] },
      { frame: 'OrderService.<init>', expected: ['OrderService.<init>@8', 'OrderService.<init>@12'] },
      { frame: 'com.example.orders.Registry.lookup', expected: ['Registry.lookup@31'] },
    ],
  },
};

const cases = Object.entries(byFile).flatMap(([file, { language, cases }]) =>
  cases.map((c) => ({ file, fileLanguage: language, ...c })),
);

describe('byName', () => {
  const parser = useParser();

  it.each(cases)('$file: $frame → $expected', async ({ file, fileLanguage, frame, language, expected }) => {
    const spans = await parser().functions(fixture(file), fileLanguage);

    const found = byName(spans, frame, language ? { language } : {});

    expect(found.map((s) => `${s.name}@${s.lines.start}`)).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ['main.(*Ledger).Post', ['Ledger.Post']], // the receiver decides over a plain function Post
    ['main.Post', ['Post']],
    ['Post', ['Post', 'Ledger.Post']], // no qualifier: both, for the caller to judge
  ])('keeps only the matches sharing the most segments: %s → %j', (frame, expected) => {
    const spans: CodeSpan[] = [fn('function', 'Post', 1, 3), fn('method', 'Ledger.Post', 5, 9)];

    expect(byName(spans, frame).map((s) => s.name)).toEqual(expected);
  });

  it('matches plain FunctionSpans by name and returns the objects given', () => {
    const spans: FunctionSpan[] = [
      { name: 'Invoice.total', lines: { start: 3, end: 9 } },
      { name: 'Invoice.parse', lines: { start: 11, end: 20 } },
    ];

    expect(byName(spans, 'com.example.billing.Invoice.total')).toEqual([spans[0]]);
    expect(byName(spans, 'com.example.billing.Invoice.total')[0]).toBe(spans[0]);
  });

  it('never matches a callback span by a plain name', () => {
    const spans: CodeSpan[] = [fn('callback', 'it("adds")', 1, 5)];

    expect(byName(spans, 'it')).toEqual([]);
  });
});

describe('parseFrameFunction', () => {
  it.each<[string, ReturnType<typeof parseFrameFunction>]>([
    [
      'com.example.billing.Invoice$Pricer.price',
      { paths: [['com', 'example', 'billing', 'Invoice', 'Pricer', 'price']], subtest: null },
    ],
    ['ReferencePipeline$3$1.accept', { paths: [['ReferencePipeline', 'accept']], subtest: null }],
    ['Outer$1Local.run', { paths: [['Outer', 'Local', 'run']], subtest: null }],
    ['new Cart', { paths: [['Cart', 'constructor'], ['Cart']], subtest: null }],
    ['Cart.prototype.add', { paths: [['Cart', 'add']], subtest: null }],
    ['v5.(*Conn).Query', { paths: [['v5', 'Conn', 'Query']], subtest: null }],
    ['reconcile.Batch.func1.2', { paths: [['reconcile', 'Batch']], subtest: null }],
    ['cart.TestSub/zero qty', { paths: [['cart', 'TestSub']], subtest: 'TestSub/zero_qty' }],
    ['$http.get', { paths: [['$http', 'get']], subtest: null }],
    ['  ', null],
    ['<module>', null],
    ['Object.<anonymous>', null],
    ['(anonymous function)', null],
  ])('%j', (text, expected) => {
    expect(parseFrameFunction(text)).toEqual(expected);
  });
});
