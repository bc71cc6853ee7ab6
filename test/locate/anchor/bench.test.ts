import { describe, expect, it } from 'vitest';
import { type CodeLanguage, findSnippet, prepareLines } from '../../../src/locate/anchor/index.ts';
import { fixture, useParser } from './helpers.ts';

/**
 * Speed, printed and not asserted (machines differ): the locator parses each file once per
 * revision and searches snippets thousands of times per second on files of a few thousand lines.
 */
const TARGET_LINES = 2000;

/** Words followed by `(` or `{` that must stay as they are for the code to still parse. */
const KEYWORDS = new Set(
  'if for while switch catch function return func super this new await async def class record interface enum static try else do go defer select struct map chan assert lambda throw extends describe it expect'.split(
    ' ',
  ),
);

interface Grown {
  language: CodeLanguage;
  source: string;
  /** The same file with one copy: its span count times `copies` is what the whole must have. */
  single: string;
  copies: number;
}

/**
 * A fixture's lines `from..to` (whole definitions) repeated until the file has ~2,000 lines,
 * with names and numbers changed per copy so lines differ the way a real file's do. A copy
 * that failed to parse would lose spans, which the span count check would show.
 */
function grown(
  language: CodeLanguage,
  file: string,
  from: number,
  to: number,
  head: string,
  tail = '',
): Grown {
  const body = fixture(file)
    .split('\n')
    .slice(from - 1, to)
    .join('\n');
  const chunks: string[] = [];
  let count = head.split('\n').length + tail.split('\n').length;
  for (let i = 0; count < TARGET_LINES; i++) {
    const renamed = body.replace(/\b[A-Za-z_]\w*\b(?=\s*[({])/g, (name) =>
      KEYWORDS.has(name) ? name : `${name}_${i}`,
    );
    chunks.push(renamed.replace(/\b(\d+)\b/g, `${i + 1}$1`));
    count += to - from + 1;
  }
  const join = (parts: string[]) => [head, ...parts, tail].join('\n');
  return { language, source: join(chunks), single: join(chunks.slice(0, 1)), copies: chunks.length };
}

const SOURCES: Grown[] = [
  grown('java', 'Invoice.java', 8, 68, 'package com.example.billing;\npublic class Invoice {', '}'),
  grown('python', 'inventory.py', 9, 49, 'import functools'),
  grown('typescript', 'cart.ts.txt', 11, 52, "import { x } from 'y';"),
  grown('go', 'ledger.go', 15, 50, 'package ledger'),
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median of a few rounds after one warm-up round, in ms: the machine may be busy with other work. */
function timeMs(run: () => unknown, rounds = 5): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

describe('speed (printed, not asserted)', () => {
  const parser = useParser();

  it.each(SOURCES)(
    'functions() on a ~2,000-line $language file',
    async ({ language, source, single, copies }) => {
      const perCopy = (await parser().functions(single, language)).length; // also loads the grammar
      const runs: number[] = [];
      let spans = 0;
      for (let i = 0; i < 7; i++) {
        const started = performance.now();
        spans = (await parser().functions(source, language)).length;
        runs.push(performance.now() - started);
      }

      console.log(
        `functions(${language}): ${source.split('\n').length} lines, ${spans} spans, median ${median(runs).toFixed(1)} ms`,
      );
      expect(spans).toBe(perCopy * copies);
    },
  );

  it('findSnippet on a ~2,000-line file', () => {
    const lines = (SOURCES[0] as Grown).source.split('\n');
    const snippets = lines.filter((line) => line.trim().length > 12).filter((_line, i) => i % 7 === 0);
    const edited = snippets.map((line) => line.replace(/\w(?=\W*$)/, 'x'));
    const queries = [...snippets, ...edited];
    const prepared = prepareLines(lines);
    const within = { start: 1000, end: 1040 };
    const found = queries.filter((q) => findSnippet(prepared, q).best !== null).length;

    const prepareMs = timeMs(() => prepareLines(lines));
    const rawMs = timeMs(() => {
      for (const q of queries) findSnippet(lines, q);
    });
    const preparedMs = timeMs(() => {
      for (const q of queries) findSnippet(prepared, q);
    });
    const withinMs = timeMs(() => {
      for (const q of queries) findSnippet(prepared, q, { within });
    });

    const rate = (ms: number) =>
      `${((queries.length / ms) * 1000).toFixed(0)}/s (${((ms / queries.length) * 1000).toFixed(0)} µs)`;
    console.log(
      [
        `findSnippet: ${lines.length} lines, ${queries.length} snippets (half edited)`,
        `  raw lines       ${rate(rawMs)}`,
        `  prepared lines  ${rate(preparedMs)}  (prepareLines once: ${prepareMs.toFixed(1)} ms)`,
        `  within 41 lines ${rate(withinMs)}`,
      ].join('\n'),
    );
    expect(found).toBe(queries.length);
  });
});
