import { describe, expect, it } from 'vitest';
import {
  findSnippet,
  isTrivialSnippet,
  MIN_SNIPPET_SCORE,
  normalizeCode,
  prepareLines,
  type SnippetOptions,
  type SnippetResult,
} from '../../../src/locate/anchor/index.ts';
import { fixture } from './helpers.ts';

const INVOICE = fixture('Invoice.java').split('\n');

/** Two functions sharing lines, as copy-paste leaves them; tests that differ by one character. */
const BILLING = `def net_total(lines, rate):
    subtotal = sum(line.amount for line in lines)
    total = round(subtotal * rate, 2)
    return total


def gross_total(lines, rate):
    subtotal = sum(line.amount for line in lines)
    total = round(subtotal * rate, 2)
    return total + shipping(lines)


def test_totals():
    assert net_total([Line(3)], 1) == 3
    assert net_total([Line(3)], 1) >= 3
    assert net_total([Line(4)], 1) == 4
`.split('\n');

/** Both ways in: raw lines and lines prepared once must give the same answer. */
function find(lines: string[], snippet: string, options?: SnippetOptions): SnippetResult {
  const raw = findSnippet(lines, snippet, options);
  expect(findSnippet(prepareLines(lines), snippet, options)).toEqual(raw);
  return raw;
}

describe('findSnippet', () => {
  it.each<[string, string, number]>([
    ['exact', 'throw new IllegalStateException("negative line: " + line);', 42],
    ['indented differently', '        throw new IllegalStateException("negative line: " + line);   ', 42],
    ['spaces changed inside', 'throw new IllegalStateException( "negative line: "+line );', 42],
    ['tabs', '\treturn\tvalue.setScale(2, RoundingMode.HALF_UP);', 52],
  ])('%s: found at score 1, unique', (_title, snippet, line) => {
    const found = find(INVOICE, snippet);

    expect(found.best).toEqual({ line, score: 1 });
    expect(found.unique).toBe(true);
  });

  it.each<[string, string, number]>([
    ['a word changed', 'throw new IllegalStateException("negative amount: " + line);', 42],
    ['an argument changed', 'return value.setScale(4, RoundingMode.HALF_UP);', 52],
    ['a call renamed', 'RATES.put("DE", new BigDecimal("0.21"));', 11],
  ])('slightly edited (%s): found below 1 but above the threshold, unique', (_title, snippet, line) => {
    const found = find(INVOICE, snippet);

    expect(found.best?.line).toBe(line);
    expect(found.best?.score).toBeLessThan(1);
    expect(found.best?.score).toBeGreaterThanOrEqual(MIN_SNIPPET_SCORE);
    expect(found.unique).toBe(true);
  });

  it('a duplicated line: every copy matched, not unique', () => {
    const found = find(BILLING, 'total = round(subtotal * rate, 2)');

    expect(found.matches).toEqual([
      { line: 3, score: 1 },
      { line: 9, score: 1 },
    ]);
    expect(found.unique).toBe(false);
  });

  it('a duplicated line inside the named function: unique there', () => {
    const found = find(BILLING, 'total = round(subtotal * rate, 2)', { within: { start: 7, end: 10 } });

    expect(found.matches).toEqual([{ line: 9, score: 1 }]);
    expect(found.unique).toBe(true);
  });

  it('an exact match with a twin one character away: best, but not clearly ahead', () => {
    const found = find(BILLING, 'assert net_total([Line(3)], 1) == 3');

    expect(found.best).toEqual({ line: 14, score: 1 });
    expect(found.matches.map((m) => m.line)).toEqual([14, 15, 16]);
    expect(found.unique).toBe(false);
  });

  it('an exact match whose closest twin is two characters away in 32: clearly ahead', () => {
    const found = find(BILLING, 'assert net_total([Line(4)], 1) == 4');

    expect(found.best).toEqual({ line: 16, score: 1 });
    expect(found.matches[1]?.score).toBeCloseTo(1 - 2 / 32, 6);
    expect(found.unique).toBe(true);
  });

  it('an edited line whose twins score far lower: unique', () => {
    const found = find(BILLING, 'return total + shipping(line)');

    expect(found.best?.line).toBe(10);
    expect(found.matches).toHaveLength(1);
    expect(found.unique).toBe(true);
  });

  it('near orders equal scores by distance, without making them unique', () => {
    const found = find(BILLING, 'subtotal = sum(line.amount for line in lines)', { near: 8 });

    expect(found.matches.map((m) => m.line)).toEqual([8, 2]);
    expect(found.best?.line).toBe(8);
    expect(found.unique).toBe(false);
  });

  it('within is clamped to the file', () => {
    const found = find(BILLING, 'return total + shipping(lines)', { within: { start: 5, end: 500 } });

    expect(found.best).toEqual({ line: 10, score: 1 });
  });

  it.each([
    '}',
    '  });',
    '{',
    ')',
    'end',
    'pass',
    'return',
    'return null;',
    'return;',
    '} else {',
    'else:',
    'super();',
    'x++',
    '',
    '   ',
  ])('trivial snippet %j: no match at all', (snippet) => {
    expect(find(INVOICE, snippet)).toEqual({ matches: [], best: null, unique: false });
  });

  it.each([
    ['a line from another file', 'const cart = new Cart<Priced>("EUR");'],
    [
      'the same start, much longer',
      'throw new IllegalStateException("negative line: " + line + " in " + invoiceNumber);',
    ],
  ])('%s: no match', (_title, snippet) => {
    expect(find(INVOICE, snippet).matches).toEqual([]);
  });
});

describe('normalizeCode', () => {
  it.each([
    ['  return  a +   b;  ', 'return a+b;'],
    ['foo( a, b )', 'foo(a,b)'],
    ['foo(a,b)', 'foo(a,b)'],
    ['if x  is not None:', 'if x is not None:'],
    ['\tconst x\t= 1', 'const x=1'],
  ])('%j → %j', (text, expected) => {
    expect(normalizeCode(text)).toBe(expected);
  });
});

describe('isTrivialSnippet', () => {
  it.each([
    ['}', true],
    ['return self', true],
    ['raise', true],
    ['} catch (IOException e) {', false],
    ['return total', false],
    ['x = 10', false],
    ['x = 1', true],
    ['i++', true],
  ])('%j → %s', (text, expected) => {
    expect(isTrivialSnippet(normalizeCode(text))).toBe(expected);
  });
});
