import { describe, expect, it } from 'vitest';
import { type CodeLanguage, type CodeSpan, enclosing } from '../../../src/locate/anchor/index.ts';
import type { FunctionSpan } from '../../../src/schemas/index.ts';
import { fixture, fn, useParser } from './helpers.ts';

describe('enclosing', () => {
  const parser = useParser();

  it.each<[string, CodeLanguage, number, string | null]>([
    ['Invoice.java', 'java', 23, 'Invoice.total'], // inside a lambda: the method it belongs to
    ['Invoice.java', 'java', 31, 'Invoice.compare'], // anonymous class method inside parseAmount
    ['Invoice.java', 'java', 34, 'Invoice.parseAmount'],
    ['Invoice.java', 'java', 16, 'Invoice.<init>'], // the annotation line
    ['Invoice.java', 'java', 8, null], // a field
    ['Invoice.java', 'java', 49, null], // an abstract interface method
    ['inventory.py', 'python', 15, 'wrapper'],
    ['inventory.py', 'python', 19, 'decorate'],
    ['inventory.py', 'python', 42, 'unit_size'], // inside a lambda
    ['inventory.py', 'python', 36, 'reload'], // the decorator line
    ['inventory.py', 'python', 6, null],
    ['cart.ts.txt', 'typescript', 57, 'it("adds two items")'],
    ['cart.ts.txt', 'typescript', 59, 'describe("Cart")'],
    ['cart.ts.txt', 'typescript', 40, 'pad'],
    ['cart.ts.txt', 'typescript', 23, 'Cart.total'], // inside a reduce callback
    ['cart.ts.txt', 'typescript', 12, null],
    ['App.tsx.txt', 'tsx', 5, 'App'], // inside an anonymous useCallback arrow
    ['ledger.cjs.txt', 'javascript', 39, 'bootstrap'], // inside an anonymous setTimeout callback
    ['ledger.go', 'go', 24, 'Ledger.Post'], // inside a deferred closure
    ['ledger.go', 'go', 44, 'TestSplitFeeKeepsEveryCent/zero_fee'],
    ['ledger.go', 'go', 48, 'TestSplitFeeKeepsEveryCent/odd/nested'],
    ['ledger.go', 'go', 10, null],
    ['OrderService.kt', 'kotlin', 16, 'OrderService.close$audit'],
    ['OrderService.kt', 'kotlin', 4, 'requireOpen'], // inside a lambda
  ])('%s line %i → %s', async (file, language, line, expected) => {
    const spans = await parser().functions(fixture(file), language);

    expect(enclosing(spans, line)?.name ?? null).toBe(expected);
  });

  it.each<[string, number, string | null]>([
    ['start line is inside', 10, 'outer'],
    ['end line is inside', 20, 'outer'],
    ['after the end is outside', 21, null],
    ['before the start is outside', 9, null],
    ['the later-starting span is the inner one', 12, 'inner'],
    ['same start: the shorter span is the inner one', 15, 'callback'],
    ['same start, after the shorter one ends', 17, 'sameStart'],
  ])('%s (line %i → %s)', (_title, line, expected) => {
    const spans: CodeSpan[] = [
      fn('function', 'outer', 10, 20),
      fn('function', 'inner', 12, 13),
      fn('method', 'sameStart', 15, 18),
      fn('callback', 'callback', 15, 15),
    ];

    expect(enclosing(spans, line)?.name ?? null).toBe(expected);
  });

  it('works on plain FunctionSpans and returns the very object given', () => {
    const spans: FunctionSpan[] = [{ name: 'a', lines: { start: 1, end: 5 } }];

    expect(enclosing(spans, 3)).toBe(spans[0]);
    expect(enclosing([], 3)).toBeNull();
  });
});
