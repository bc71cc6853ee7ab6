import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitObjects } from '../../src/git/index.ts';
import { git, lines, TestRepo, tempDir, text } from './repo.ts';

describe('GitObjects on a local working copy', () => {
  const repo = new TestRepo();
  let objects: GitObjects;
  let first: string;
  let second: string;

  beforeAll(async () => {
    first = repo.commit(
      { 'src/a.py': 'print("a")\n', 'README.md': '# readme\n', 'docs/x y/ü.txt': 'unicode\n' },
      'one',
    );
    repo.write('bin/run.sh', '#!/bin/sh\necho run\n');
    chmodSync(join(repo.dir, 'bin/run.sh'), 0o755);
    repo.symlink('src/passwd', '../../../../../../etc/passwd');
    repo.symlink('src/inside', 'a.py');
    repo.commit({ 'src/a.py': 'print("a2")\n', 'src/b.py': 'print("b")\n' }, 'two');
    // A submodule entry (gitlink) with no checkout: only the tree entry matters here.
    repo.git('update-index', '--add', '--cacheinfo', `160000,${first},vendor/lib`);
    repo.git('commit', '-q', '--amend', '--no-edit');
    second = repo.head();
    objects = await GitObjects.openLocal(repo.dir);
  });
  afterAll(async () => {
    await objects.close();
    repo.remove();
  });

  it('resolves names to full shas and knows parents', async () => {
    expect(await objects.resolve('HEAD')).toBe(second);
    expect(await objects.resolve('main~1')).toBe(first);
    expect(await objects.resolve(second.slice(0, 10))).toBe(second);
    expect(await objects.parents(second)).toEqual([first]);
    expect(await objects.parents(first)).toEqual([]);
  });

  it('peels an annotated tag to its commit', async () => {
    repo.git('tag', '-a', 'v1', '-m', 'release', first);

    expect(await objects.resolve('v1')).toBe(first);
  });

  it('fails an unknown sha with REVISION_NOT_FOUND naming it', async () => {
    const unknown = 'deadbeef'.repeat(5);

    await expect(objects.resolve(unknown)).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
      input: unknown,
    });
    await expect(objects.ensure(unknown)).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
      input: unknown,
    });
    await expect(objects.readFile(unknown, 'src/a.py')).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
  });

  it('refuses a revision that would be read as an option', async () => {
    await expect(objects.resolve('--output=/tmp/x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('lists regular files only, and every entry with its kind', async () => {
    const files = await objects.listFiles(second);
    const entries = await objects.listEntries(second);

    expect([...files].sort()).toEqual(['README.md', 'bin/run.sh', 'docs/x y/ü.txt', 'src/a.py', 'src/b.py']);
    expect(Object.fromEntries(entries.map((e) => [e.path, `${e.kind} ${e.mode}`]))).toEqual({
      'README.md': 'file 100644',
      'bin/run.sh': 'executable 100755',
      'docs/x y/ü.txt': 'file 100644',
      'src/a.py': 'file 100644',
      'src/b.py': 'file 100644',
      'src/inside': 'symlink 120000',
      'src/passwd': 'symlink 120000',
      'vendor/lib': 'submodule 160000',
    });
    expect(await objects.listFiles(first)).toEqual(['README.md', 'docs/x y/ü.txt', 'src/a.py']);
  });

  it('reads files at each revision from objects, not from the working tree', async () => {
    writeFileSync(join(repo.dir, 'src/a.py'), 'dirty working tree\n');

    expect(await objects.readFile(first, 'src/a.py')).toBe('print("a")\n');
    expect(await objects.readFile(second, 'src/a.py')).toBe('print("a2")\n');
    expect(await objects.readFile(second, './src//b.py')).toBe('print("b")\n');
    expect(await objects.readFile(second, 'docs/x y/ü.txt')).toBe('unicode\n');
    expect(await objects.readFile(first, 'src/b.py')).toBeNull();
    expect(await objects.readFile(second, 'src')).toBeNull();
  });

  it('answers exists for readable files only', async () => {
    expect(await objects.exists(second, 'bin/run.sh')).toBe(true);
    expect(await objects.exists(first, 'bin/run.sh')).toBe(false);
    expect(await objects.exists(second, 'src/passwd')).toBe(false);
    expect(await objects.exists(second, 'vendor/lib')).toBe(false);
  });

  it('refuses symlinks (outside or inside the repository) and submodules', async () => {
    await expect(objects.readFile(second, 'src/passwd')).rejects.toMatchObject({
      code: 'PATH_REFUSED',
      input: 'src/passwd',
    });
    await expect(objects.readFile(second, 'src/inside')).rejects.toMatchObject({ code: 'PATH_REFUSED' });
    await expect(objects.readFile(second, 'vendor/lib')).rejects.toMatchObject({ code: 'PATH_REFUSED' });
  });

  it.each([['../etc/passwd'], ['/etc/passwd'], ['src/../../etc/passwd'], ['C:\\x']])(
    'refuses the hostile path %j',
    async (path) => {
      await expect(objects.readFile(second, path)).rejects.toMatchObject({ code: 'PATH_REFUSED' });
      await expect(objects.exists(second, path)).rejects.toMatchObject({ code: 'PATH_REFUSED' });
    },
  );

  it('reads many files at once, in order, through one reader', async () => {
    const paths = ['src/a.py', 'README.md', 'src/b.py', 'nope', 'docs/x y/ü.txt'];

    const texts = await Promise.all(paths.map((path) => objects.readFile(second, path)));

    expect(texts).toEqual(['print("a2")\n', '# readme\n', 'print("b")\n', null, 'unicode\n']);
  });
});

describe('GitObjects.openLocal', () => {
  it('opens a bare repository and reads from it', async () => {
    const repo = new TestRepo();
    const sha = repo.commit({ 'f.txt': 'hello\n' });
    const bare = tempDir('bare');
    git(bare, 'clone', '-q', '--bare', repo.dir, '.');
    const objects = await GitObjects.openLocal(bare);

    try {
      expect(await objects.readFile(sha, 'f.txt')).toBe('hello\n');
      expect(await objects.resolve('main')).toBe(sha);
    } finally {
      await objects.close();
      repo.remove();
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('refuses a folder inside a repository and a folder that is none', async () => {
    const repo = new TestRepo();
    repo.commit({ 'sub/f.txt': 'x\n' });
    const plain = tempDir('plain');

    try {
      await expect(GitObjects.openLocal(join(repo.dir, 'sub'))).rejects.toMatchObject({
        code: 'REPO_NOT_FOUND',
      });
      await expect(GitObjects.openLocal(plain)).rejects.toMatchObject({ code: 'REPO_NOT_FOUND' });
      await expect(GitObjects.openLocal('/nonexistent/repo')).rejects.toMatchObject({
        code: 'REPO_NOT_FOUND',
      });
    } finally {
      repo.remove();
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('GitObjects limits and lifecycle', () => {
  it('refuses a file larger than the limit, and reads one just below it', async () => {
    const repo = new TestRepo();
    const sha = repo.commit({ 'big.txt': 'x'.repeat(2000), 'small.txt': 'y'.repeat(1000) });
    const objects = await GitObjects.openLocal(repo.dir, { maxFileBytes: 1000 });

    try {
      await expect(objects.readFile(sha, 'big.txt')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
      // The skipped bytes must not desynchronise the reader.
      expect(await objects.readFile(sha, 'small.txt')).toBe('y'.repeat(1000));
    } finally {
      await objects.close();
      repo.remove();
    }
  });

  it('reads a multi-megabyte file that arrives in many chunks', async () => {
    const repo = new TestRepo();
    const big = text(lines(200_000));
    const sha = repo.commit({ 'big.txt': big, 'after.txt': 'after\n' });
    const objects = await GitObjects.openLocal(repo.dir);

    try {
      const [read, after] = await Promise.all([
        objects.readFile(sha, 'big.txt'),
        objects.readFile(sha, 'after.txt'),
      ]);

      expect(read?.length).toBe(big.length);
      expect(read).toBe(big);
      expect(after).toBe('after\n');
    } finally {
      await objects.close();
      repo.remove();
    }
  });

  it('fails reads after close', async () => {
    const repo = new TestRepo();
    const sha = repo.commit({ 'f.txt': 'x\n' });
    const objects = await GitObjects.openLocal(repo.dir);
    await objects.readFile(sha, 'f.txt');

    await objects.close();

    await expect(objects.resolve('deadbeef')).rejects.toMatchObject({ code: 'GIT_ERROR' });
    repo.remove();
  });
});
