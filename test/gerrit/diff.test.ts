import { describe, expect, it } from 'vitest';
import { type DiffContent, type DiffInfo, diffContentToHunks, toFileDiff } from '../../src/gerrit/index.ts';

const lines = (n: number, tag = 'x') => Array.from({ length: n }, (_, i) => `${tag}${i}`);

describe('diffContentToHunks', () => {
  it.each<[string, DiffContent[], ReturnType<typeof diffContentToHunks>]>([
    ['no change', [{ ab: lines(3) }], []],
    [
      'insertion in the middle',
      [{ ab: lines(5) }, { b: lines(2) }, { ab: lines(3) }],
      [{ oldStart: 5, oldLines: 0, newStart: 6, newLines: 2 }],
    ],
    [
      'insertion at the top',
      [{ b: lines(1) }, { ab: lines(3) }],
      [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }],
    ],
    [
      'deletion in the middle',
      [{ ab: lines(5) }, { a: lines(2) }, { ab: lines(3) }],
      [{ oldStart: 6, oldLines: 2, newStart: 5, newLines: 0 }],
    ],
    [
      'deletion at the top',
      [{ a: lines(2) }, { ab: lines(3) }],
      [{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0 }],
    ],
    [
      'replacement',
      [{ ab: lines(2) }, { a: lines(1), b: lines(3) }, { ab: lines(1) }],
      [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 3 }],
    ],
    [
      'adjacent a then b chunks are one hunk',
      [{ ab: lines(1) }, { a: lines(2) }, { b: lines(1) }],
      [{ oldStart: 2, oldLines: 2, newStart: 2, newLines: 1 }],
    ],
    [
      'skip counts on both sides',
      [{ skip: 10 }, { ab: lines(2) }, { a: lines(1), b: lines(1) }, { skip: 5 }, { b: lines(1) }],
      [
        { oldStart: 13, oldLines: 1, newStart: 13, newLines: 1 },
        { oldStart: 18, oldLines: 0, newStart: 19, newLines: 1 },
      ],
    ],
    [
      'several hunks keep running offsets',
      [{ b: lines(2) }, { ab: lines(3) }, { a: lines(1) }, { ab: lines(1) }, { a: lines(1), b: lines(2) }],
      [
        { oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 },
        { oldStart: 4, oldLines: 1, newStart: 5, newLines: 0 },
        { oldStart: 6, oldLines: 1, newStart: 7, newLines: 2 },
      ],
    ],
    ['whole file added', [{ b: lines(4) }], [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 4 }]],
    ['whole file deleted', [{ a: lines(4) }], [{ oldStart: 1, oldLines: 4, newStart: 0, newLines: 0 }]],
    // Gerrit's extra empty line after a final newline is not a line to git.
    [
      'added file ending with a newline',
      [{ b: ['x', 'y', ''] }],
      [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 }],
    ],
    [
      'deleted file ending with a newline',
      [{ a: ['x', ''] }],
      [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 }],
    ],
    ['added empty file', [{ b: [''] }], []],
    [
      'final newline removed with the last line changed',
      [{ ab: ['x'] }, { a: ['y', ''], b: ['z'] }],
      [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
    ],
    [
      'end-of-file line inside ab is untouched',
      [{ ab: ['x'] }, { b: ['y'] }, { ab: [''] }],
      [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 }],
    ],
    [
      'an empty line before the end is a real line',
      [{ ab: ['x'] }, { b: ['', 'y', ''] }],
      [{ oldStart: 1, oldLines: 0, newStart: 2, newLines: 2 }],
    ],
  ])('%s', (_name, content, expected) => {
    expect(diffContentToHunks(content)).toEqual(expected);
  });
});

describe('toFileDiff', () => {
  const body: DiffContent[] = [{ ab: lines(1) }, { b: lines(1) }];
  const hunk = { oldStart: 1, oldLines: 0, newStart: 2, newLines: 1 };

  it.each<[DiffInfo['change_type'], string | undefined, object]>([
    ['MODIFIED', undefined, { oldPath: 'f.ts', newPath: 'f.ts', status: 'modified', hunks: [hunk] }],
    ['REWRITE', undefined, { oldPath: 'f.ts', newPath: 'f.ts', status: 'modified', hunks: [hunk] }],
    ['RENAMED', 'old.ts', { oldPath: 'old.ts', newPath: 'f.ts', status: 'renamed', hunks: [hunk] }],
  ])('%s', (changeType, oldPath, expected) => {
    expect(toFileDiff('f.ts', { change_type: changeType, content: body }, oldPath)).toEqual(expected);
  });

  it('ADDED and DELETED null the missing side', () => {
    expect(toFileDiff('n.ts', { change_type: 'ADDED', content: [{ b: ['a'] }] })).toEqual({
      oldPath: null,
      newPath: 'n.ts',
      status: 'added',
      hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }],
    });
    expect(toFileDiff('d.ts', { change_type: 'DELETED', content: [{ a: ['a', 'b'] }] })).toEqual({
      oldPath: 'd.ts',
      newPath: null,
      status: 'deleted',
      hunks: [{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0 }],
    });
  });

  it('COPIED is an added file over all its lines, as git -M (no copy detection) reports it', () => {
    const info: DiffInfo = {
      change_type: 'COPIED',
      meta_b: { name: 'c.ts', lines: 4 },
      content: [{ ab: [...lines(3), ''] }],
    };

    expect(toFileDiff('c.ts', info, 'src.ts')).toEqual({
      oldPath: null,
      newPath: 'c.ts',
      status: 'added',
      hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 3 }],
    });
  });

  it('marks binary content without hunks', () => {
    expect(toFileDiff('img.png', { change_type: 'MODIFIED', content: [], binary: true })).toMatchObject({
      hunks: [],
      binary: true,
    });
  });
});
