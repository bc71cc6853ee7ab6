import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitDiffSource, GitObjects, type Hunk, mapLine } from '../../src/git/index.ts';
import { lines, TestRepo, text } from './repo.ts';

const h = (oldStart: number, oldLines: number, newStart: number, newLines: number): Hunk => ({
  oldStart,
  oldLines,
  newStart,
  newLines,
});

describe('mapLine on given hunks', () => {
  // The hunks of: insert 1 line at the top, rewrite old line 3, delete old line 5, append after 6.
  const hunks = [h(0, 0, 1, 1), h(3, 1, 4, 1), h(5, 1, 4, 0), h(6, 0, 7, 1)];

  it.each([
    [1, { line: 2, exact: true }],
    [2, { line: 3, exact: true }],
    [3, { line: null, reason: 'rewritten' }],
    [4, { line: 5, exact: true }],
    [5, { line: null, reason: 'deleted' }],
    [6, { line: 6, exact: true }],
    [100, { line: 101, exact: true }],
  ])('carries old line %i', (oldLine, expected) => {
    expect(mapLine(hunks, oldLine)).toEqual(expected);
  });

  it('keeps a line when nothing changed', () => {
    expect(mapLine([], 7)).toEqual({ line: 7, exact: true });
  });

  it('does not shift a line by an insertion just below it', () => {
    expect(mapLine([h(4, 0, 5, 3)], 4)).toEqual({ line: 4, exact: true });
    expect(mapLine([h(4, 0, 5, 3)], 5)).toEqual({ line: 8, exact: true });
  });

  it('maps a multi-line rewrite that shrinks', () => {
    const shrink = [h(2, 3, 2, 1)];

    expect([1, 2, 3, 4, 5].map((line) => mapLine(shrink, line))).toEqual([
      { line: 1, exact: true },
      { line: null, reason: 'rewritten' },
      { line: null, reason: 'rewritten' },
      { line: null, reason: 'rewritten' },
      { line: 3, exact: true },
    ]);
  });

  it('accepts hunks out of order', () => {
    expect(mapLine([h(6, 0, 7, 1), h(0, 0, 1, 2)], 8)).toEqual({ line: 11, exact: true });
  });

  it.each([[0], [-1], [1.5], [Number.NaN]])('refuses line %d', (line) => {
    expect(() => mapLine([], line)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

/**
 * Against git itself: for each step parent → child, every line of the parent's file is carried
 * by `mapLine` through the hunks `GitDiffSource` reads, and compared with
 * `git blame --reverse` (the last commit in which each old line still existed, and its line
 * number there), using the same diff algorithm.
 */
describe('mapLine against git blame --reverse on real commits', () => {
  const repo = new TestRepo();
  let objects: GitObjects;
  const base = lines(40);
  const steps: { name: string; content: string[] }[] = [
    { name: 'insert three lines at the top', content: ['new a', 'new b', 'new c', ...base] },
    {
      name: 'move a block of lines down',
      content: [
        'new a',
        'new b',
        'new c',
        ...base.slice(0, 5),
        ...base.slice(10, 20),
        ...base.slice(5, 10),
        ...base.slice(20),
      ],
    },
    {
      name: 'delete lines without replacement',
      content: ['new a', ...base.slice(0, 5), ...base.slice(10, 20), ...base.slice(5, 8), ...base.slice(22)],
    },
    {
      name: 'rewrite lines in place and grow a hunk',
      content: [
        'new a',
        ...base.slice(0, 3),
        'changed 4',
        'changed 5',
        'extra',
        ...base.slice(10, 20),
        ...base.slice(5, 8),
        ...base.slice(22, 30),
        'tail 1',
        'tail 2',
      ],
    },
    { name: 'delete everything but one line', content: [base[12] as string] },
  ];
  const shas: string[] = [];

  beforeAll(async () => {
    shas.push(repo.commit({ 'src/file.txt': text(base) }, 'base'));
    for (const step of steps) shas.push(repo.commit({ 'src/file.txt': text(step.content) }, step.name));
    objects = await GitObjects.openLocal(repo.dir);
  });
  afterAll(async () => {
    await objects.close();
    repo.remove();
  });

  it.each(steps.map((step, i) => [step.name, i] as const))('%s', async (_name, i) => {
    const [parent, child] = [shas[i] as string, shas[i + 1] as string];
    const [fileDiff] = await new GitDiffSource(objects).diff(parent, child);
    const survivors = blameReverse(repo, parent, child, 'src/file.txt');
    const oldText = ((await objects.readFile(parent, 'src/file.txt')) ?? '').split('\n');
    const newText = ((await objects.readFile(child, 'src/file.txt')) ?? '').split('\n');

    const mapped = survivors.map((_, index) => mapLine(fileDiff?.hunks ?? [], index + 1));

    expect(survivors).toHaveLength(oldText.length - 1);
    expect(survivors.some((line) => line !== null)).toBe(true);
    expect(fileDiff?.status).toBe('modified');
    expect(mapped.map((m) => m.line)).toEqual(survivors);
    for (const [index, m] of mapped.entries()) {
      if (m.line !== null) expect(newText[m.line - 1]).toBe(oldText[index]);
    }
  });

  it('sees moved lines as removed and re-added, never as exact elsewhere', async () => {
    const [fileDiff] = await new GitDiffSource(objects).diff(shas[1] as string, shas[2] as string);

    // Old lines 9..13 are "line 6".."line 10" (after the three inserted lines): histogram moves them.
    const moved = [9, 10, 11, 12, 13].map((line) => mapLine(fileDiff?.hunks ?? [], line));

    expect(moved.some((m) => m.line === null)).toBe(true);
  });
});

/** For each line of `path` at `parent`: its line number at `child`, or null when it did not survive. */
function blameReverse(repo: TestRepo, parent: string, child: string, path: string): (number | null)[] {
  const out = repo.git(
    'blame',
    '--porcelain',
    '--reverse',
    '--diff-algorithm=histogram',
    `${parent}..${child}`,
    '--',
    path,
  );
  const result: (number | null)[] = [];
  for (const row of out.split('\n')) {
    const header = /^([0-9a-f]{40}) (\d+) (\d+)/.exec(row);
    if (header === null) continue;
    const [, sha, lineThere, oldLine] = header;
    result[Number(oldLine) - 1] = sha === child ? Number(lineThere) : null;
  }
  return result;
}
