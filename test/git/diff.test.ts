import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  combineDiff,
  FileDiff,
  GitDiffSource,
  GitObjects,
  mapLine,
  parseRawDiff,
} from '../../src/git/index.ts';
import { lines, TestRepo, text } from './repo.ts';

describe('GitDiffSource on real commits', () => {
  const repo = new TestRepo();
  let objects: GitObjects;
  let diffs: GitDiffSource;
  const service = lines(30, 'service');

  beforeAll(async () => {
    objects = await GitObjects.openLocal(repo.dir);
    diffs = new GitDiffSource(objects);
  });
  afterAll(async () => {
    await objects.close();
    repo.remove();
  });

  it('finds a rename with an edit (git mv + edit) and its exact hunks', async () => {
    const base = repo.commit({ 'src/old_name.py': text(service), 'keep.txt': 'keep\n' });
    repo.git('mv', 'src/old_name.py', 'src/new_name.py');
    const edited = [...service.slice(0, 10), 'inserted 1', 'inserted 2', ...service.slice(10, 29)];
    const target = repo.commit({ 'src/new_name.py': text(edited) });

    const result = await diffs.diff(base, target);

    expect(result).toEqual([
      {
        oldPath: 'src/old_name.py',
        newPath: 'src/new_name.py',
        status: 'renamed',
        hunks: [
          { oldStart: 10, oldLines: 0, newStart: 11, newLines: 2 },
          { oldStart: 30, oldLines: 1, newStart: 31, newLines: 0 },
        ],
      },
    ]);
    const hunks = result[0]?.hunks ?? [];
    expect(mapLine(hunks, 10)).toEqual({ line: 10, exact: true });
    expect(mapLine(hunks, 11)).toEqual({ line: 13, exact: true });
    expect(mapLine(hunks, 30)).toEqual({ line: null, reason: 'deleted' });
  });

  it('reports added, deleted and modified files, with paths git would quote', async () => {
    const base = repo.commit({ 'gone.txt': 'a\nb\n', 'mod.txt': 'one\ntwo\nthree\n' });
    const target = repo.commit({
      'gone.txt': null,
      'mod.txt': 'one\n2\nthree\n',
      'dir with space/tab\there "q".txt': 'x\ny\n',
    });

    const result = await diffs.diff(base, target);

    expect(sortByPath(result)).toEqual([
      {
        oldPath: null,
        newPath: 'dir with space/tab\there "q".txt',
        status: 'added',
        hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 2 }],
      },
      {
        oldPath: 'gone.txt',
        newPath: null,
        status: 'deleted',
        hunks: [{ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0 }],
      },
      {
        oldPath: 'mod.txt',
        newPath: 'mod.txt',
        status: 'modified',
        hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 }],
      },
    ]);
  });

  it('does not call an empty file binary', async () => {
    const base = repo.commit({ 'ü/placeholder.txt': 'p\n' });
    const added = repo.commit({ 'ü/empty.txt': '' });
    const deleted = repo.commit({ 'ü/empty.txt': null });

    expect(await diffs.diff(base, added)).toEqual([
      { oldPath: null, newPath: 'ü/empty.txt', status: 'added', hunks: [] },
    ]);
    expect(await diffs.diff(added, deleted)).toEqual([
      { oldPath: 'ü/empty.txt', newPath: null, status: 'deleted', hunks: [] },
    ]);
  });

  it('marks binary changes, and leaves mode-only changes and pure renames hunk-less', async () => {
    const base = repo.commit({
      'img.bin': Buffer.from([0, 1, 2, 3]),
      'tool.sh': 'echo\n',
      'same.txt': 'same\n',
    });
    chmodSync(join(repo.dir, 'tool.sh'), 0o755);
    repo.git('mv', 'same.txt', 'moved.txt');
    const target = repo.commit({ 'img.bin': Buffer.from([0, 9, 9, 9]) });

    const result = await diffs.diff(base, target);

    expect(sortByPath(result)).toEqual([
      { oldPath: 'img.bin', newPath: 'img.bin', status: 'modified', hunks: [], binary: true },
      { oldPath: 'same.txt', newPath: 'moved.txt', status: 'renamed', hunks: [] },
      { oldPath: 'tool.sh', newPath: 'tool.sh', status: 'modified', hunks: [] },
    ]);
  });

  it('keeps a file that became a symlink as one modified file', async () => {
    const base = repo.commit({ 'link.txt': 'a\nb\nc\n', 'after.txt': 'x\n' });
    repo.write('link.txt', null);
    repo.symlink('link.txt', 'after.txt');
    const target = repo.commit({ 'after.txt': 'y\n' });

    const result = await diffs.diff(base, target);

    expect(sortByPath(result)).toEqual([
      {
        oldPath: 'after.txt',
        newPath: 'after.txt',
        status: 'modified',
        hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }],
      },
      {
        oldPath: 'link.txt',
        newPath: 'link.txt',
        status: 'modified',
        hunks: [
          { oldStart: 1, oldLines: 3, newStart: 0, newLines: 0 },
          { oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 },
        ],
      },
    ]);
    expect(mapLine(result.find((f) => f.newPath === 'link.txt')?.hunks ?? [], 2)).toMatchObject({
      line: null,
    });
  });

  it('returns nothing for identical revisions and schema-valid data otherwise', async () => {
    const sha = repo.commit({ 'z.txt': 'z\n' });

    expect(await diffs.diff(sha, sha)).toEqual([]);
    for (const file of await diffs.diff(`${sha}~3`, sha)) expect(FileDiff.parse(file)).toEqual(file);
  });

  it('fails an unknown base with REVISION_NOT_FOUND', async () => {
    await expect(diffs.diff('0123456789'.repeat(4), 'HEAD')).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
    });
  });

  it('uses the requested algorithm, histogram by default (as Gerrit does)', async () => {
    // A pair on which git's myers and histogram algorithms choose different hunks.
    const base = repo.commit({ 'alg.txt': text(['d', 'a', 'd', 'c', 'b', 'a']) });
    const target = repo.commit({ 'alg.txt': text(['a', 'a', 'a', 'a', 'd']) });

    const byDefault = await diffs.diff(base, target);
    const myers = await new GitDiffSource(objects, { algorithm: 'myers' }).diff(base, target);

    expect(byDefault[0]?.hunks).toEqual([
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 3 },
      { oldStart: 4, oldLines: 3, newStart: 5, newLines: 0 },
    ]);
    expect(myers[0]?.hunks).toEqual([
      { oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 },
      { oldStart: 3, oldLines: 3, newStart: 1, newLines: 0 },
      { oldStart: 6, oldLines: 0, newStart: 3, newLines: 3 },
    ]);
  });
});

describe('diff output parsing', () => {
  it('refuses a patch that does not line up with the file list', () => {
    const raw = parseRawDiff(`:100644 100644 ${'a'.repeat(40)} ${'b'.repeat(40)} M\0x.txt\0`);

    expect(() => combineDiff(raw, '')).toThrow(expect.objectContaining({ code: 'GIT_ERROR' }));
  });

  it('refuses an unknown raw record', () => {
    expect(() => parseRawDiff(':garbage\0x\0')).toThrow(expect.objectContaining({ code: 'GIT_ERROR' }));
  });
});

function sortByPath(files: FileDiff[]): FileDiff[] {
  const key = (f: FileDiff) => f.oldPath ?? f.newPath ?? '';
  return [...files].sort((a, b) => key(a).localeCompare(key(b)));
}
