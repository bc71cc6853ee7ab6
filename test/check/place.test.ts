import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDraft } from '../../src/check/index.ts';
import type { DiagnosisPlace } from '../../src/schemas/index.ts';
import { goodDraft, openWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await openWorld();
});
afterAll(async () => world.close());

async function placeFindings(place: DiagnosisPlace) {
  const findings = await checkDraft({ ...goodDraft(world), place }, world.input);
  return findings.filter((f) => f.path.startsWith('place')).map((f) => [f.code, f.path, f.severity]);
}

describe('the place', () => {
  it('keeps a line the locator granted (src/price.py:6 and the test line)', async () => {
    expect(
      await placeFindings({
        level: 'line',
        file: 'src/price.py',
        function: 'unit_price',
        lines: { start: 6, end: 6 },
      }),
    ).toEqual([]);
    expect(
      await placeFindings({
        level: 'line',
        file: 'tests/test_price.py',
        function: null,
        lines: { start: 5, end: 5 },
      }),
    ).toEqual([]);
  });

  it('rejects a line the locator did not grant: other lines of a granted file', async () => {
    expect(
      await placeFindings({
        level: 'line',
        file: 'src/price.py',
        function: 'describe',
        lines: { start: 10, end: 10 },
      }),
    ).toEqual([['line_not_granted', 'place', 'error']]);
  });

  it('rejects a line in a file granted only at function level', async () => {
    expect(
      await placeFindings({
        level: 'line',
        file: 'src/cart.ts',
        function: 'Cart.total',
        lines: { start: 9, end: 9 },
      }),
    ).toEqual([['line_not_granted', 'place', 'error']]);
  });

  it('rejects a line in a file no candidate names, and a line level without lines', async () => {
    expect(
      await placeFindings({
        level: 'line',
        file: 'test/cart.test.ts',
        function: null,
        lines: { start: 7, end: 7 },
      }),
    ).toEqual([['line_not_granted', 'place', 'error']]);
    expect(
      await placeFindings({ level: 'line', file: 'src/price.py', function: 'unit_price', lines: null }),
    ).toEqual([['line_not_granted', 'place', 'error']]);
  });

  it('keeps a function the parser finds, by name, qualified name or suffix', async () => {
    for (const fn of ['Cart.total', 'total']) {
      expect(
        await placeFindings({ level: 'function', file: 'src/cart.ts', function: fn, lines: null }),
        fn,
      ).toEqual([]);
    }
    // Not among the candidates, but the parser finds it: a function level is supported.
    expect(
      await placeFindings({ level: 'function', file: 'src/price.py', function: 'describe', lines: null }),
    ).toEqual([]);
  });

  it('rejects a function the parser does not find, and a function level that names none', async () => {
    expect(
      await placeFindings({ level: 'function', file: 'src/price.py', function: 'round_price', lines: null }),
    ).toEqual([['function_not_found', 'place.function', 'error']]);
    expect(
      await placeFindings({ level: 'function', file: 'src/price.py', function: null, lines: null }),
    ).toEqual([['function_not_found', 'place.function', 'error']]);
  });

  it('rejects a file the revision does not have, at any level', async () => {
    expect(
      await placeFindings({ level: 'file', file: 'src/pricing.py', function: null, lines: null }),
    ).toEqual([['file_not_at_revision', 'place.file', 'error']]);
    expect(await placeFindings({ level: 'file', file: null, function: null, lines: null })).toEqual([
      ['file_not_at_revision', 'place.file', 'error'],
    ]);
  });

  it('rejects lines past the end of the file', async () => {
    expect(
      await placeFindings({
        level: 'function',
        file: 'src/price.py',
        function: 'unit_price',
        lines: { start: 4, end: 60 },
      }),
    ).toEqual([['lines_out_of_range', 'place.lines', 'error']]);
  });

  it('keeps need_evidence with nothing named', async () => {
    expect(await placeFindings({ level: 'need_evidence', file: null, function: null, lines: null })).toEqual(
      [],
    );
  });
});
