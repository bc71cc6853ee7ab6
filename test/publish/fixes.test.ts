import { describe, expect, it } from 'vitest';
import { encodeFix, firstOverlap, linesOf, rangeProblem } from '../../src/publish/index.ts';
import type { Replacement, VerifiedFix } from '../../src/schemas/index.ts';
import { CART_TS } from './sample.ts';

const range = (start_line: number, start_character: number, end_line: number, end_character: number) => ({
  start_line,
  start_character,
  end_line,
  end_character,
});
const rep = (path: string, r: ReturnType<typeof range>, replacement = 'x'): Replacement => ({
  path,
  range: r,
  replacement,
});
const fix = (replacements: Replacement[]): VerifiedFix => ({
  description: 'Return the summed total',
  replacements,
  verification: { command: 'npx vitest run', outcome: 'passed', evidence: 'ev_1' },
});

describe('fix ranges', () => {
  const lines = linesOf(CART_TS);

  it('counts lines as Gerrit does: a final newline adds no line', () => {
    expect(linesOf('a\nb\n')).toEqual(['a', 'b']);
    expect(linesOf('a\nb')).toEqual(['a', 'b']);
    expect(lines).toHaveLength(5);
  });

  it('accepts ranges inside the text, and appending at the end of the file', () => {
    expect(rangeProblem(range(4, 2, 4, 36), lines)).toBeNull();
    expect(rangeProblem(range(6, 0, 6, 0), lines)).toBeNull();
  });

  it('names what is wrong with a range', () => {
    expect(rangeProblem(range(4, 5, 4, 2), lines)).toMatch(/ends before it starts/);
    expect(rangeProblem(range(9, 0, 9, 1), lines)).toMatch(/line 9 is past the end of the file \(5 lines\)/);
    expect(rangeProblem(range(1, 0, 1, 999), lines)).toMatch(/character 999 is past the end of line 1/);
  });

  it('finds overlapping replacements in one file; touching ones and other files are fine', () => {
    expect(firstOverlap([rep('a', range(1, 0, 2, 3)), rep('a', range(2, 3, 3, 0))])).toBeNull();
    expect(firstOverlap([rep('a', range(1, 0, 2, 3)), rep('b', range(1, 0, 2, 3))])).toBeNull();
    expect(firstOverlap([rep('a', range(2, 0, 3, 0)), rep('a', range(1, 0, 2, 1))])).toMatch(
      /replacements in a overlap: 1:0-2:1 and 2:0-3:0/,
    );
  });
});

describe('encodeFix', () => {
  const files = new Set(['src/cart.ts']);
  const textOf = async (path: string) => (path === 'src/cart.ts' ? CART_TS : null);

  it('encodes a valid fix as a Gerrit fix suggestion', async () => {
    const encoded = await encodeFix(fix([rep('src/cart.ts', range(4, 18, 4, 27), 'total')]), files, textOf);
    expect(encoded).toEqual({
      ok: true,
      fix: {
        description: 'Return the summed total',
        replacements: [{ path: 'src/cart.ts', range: range(4, 18, 4, 27), replacement: 'total' }],
      },
    });
  });

  it('refuses a fix Gerrit would reject, saying why', async () => {
    const outside = await encodeFix(fix([rep('src/other.ts', range(1, 0, 1, 1))]), files, textOf);
    expect(outside).toEqual({ ok: false, reason: 'src/other.ts is not a file of this patchset' });
    const overlap = await encodeFix(
      fix([rep('src/cart.ts', range(4, 0, 4, 10)), rep('src/cart.ts', range(4, 5, 4, 20))]),
      files,
      textOf,
    );
    expect(overlap.ok).toBe(false);
    const past = await encodeFix(fix([rep('src/cart.ts', range(40, 0, 40, 1))]), files, textOf);
    expect(past).toMatchObject({ ok: false, reason: expect.stringMatching(/^src\/cart.ts: line 40/) });
  });
});
