import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FetchRequest,
  GitObjects,
  GitRunner,
  RemoteFetcher,
  RepoCache,
  type RevisionFetcher,
} from '../../src/git/index.ts';
import { git, TestRepo, tempDir } from './repo.ts';

/**
 * A "Gerrit" remote: branch `main`, plus patch sets that live only under `refs/changes/` (as on
 * a Gerrit server), so a fresh clone does not have them.
 */
function gerritLikeRemote(): { remote: TestRepo; main: string; ps3: string; ps4: string } {
  const remote = new TestRepo();
  const main = remote.commit({ 'src/app.py': 'def main():\n    return 1\n' }, 'base');
  remote.git('checkout', '-q', '-b', 'change');
  const ps3 = remote.commit({ 'src/app.py': 'def main():\n    return 3\n' }, 'patch set 3');
  remote.git('update-ref', 'refs/changes/45/12345/3', ps3);
  const ps4 = remote.commit({ 'src/app.py': 'def main():\n    return 4\n' }, 'patch set 4');
  remote.git('update-ref', 'refs/changes/45/12345/4', ps4);
  remote.git('checkout', '-q', 'main');
  remote.git('branch', '-q', '-D', 'change');
  return { remote, main, ps3, ps4 };
}

describe('RepoCache', () => {
  let fixture: ReturnType<typeof gerritLikeRemote>;
  let cacheDir: string;
  let cache: RepoCache;

  beforeAll(() => {
    fixture = gerritLikeRemote();
  });
  afterAll(() => fixture.remote.remove());
  beforeEach(() => {
    cacheDir = tempDir('repo-cache');
    cache = new RepoCache({ dir: cacheDir });
  });
  afterEach(async () => {
    await cache.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('clones a bare mirror on first use, one folder per project', async () => {
    const objects = await cache.open('platform/order-service', fixture.remote.dir);

    expect(readdirSync(cacheDir)).toEqual(['platform%2Forder-service.git']);
    expect(git(cache.mirrorPath('platform/order-service'), 'rev-parse', '--is-bare-repository').trim()).toBe(
      'true',
    );
    expect(await objects.resolve('main')).toBe(fixture.main);
    await expect(objects.resolve('refs/changes/45/12345/3')).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
    });
  });

  it('fetches a Gerrit change ref on demand into refs/ci-diagnosis/', async () => {
    const objects = await cache.open('order', fixture.remote.dir);

    const sha = await objects.ensure('refs/changes/45/12345/3');

    expect(sha).toBe(fixture.ps3);
    expect(await objects.readFile(sha, 'src/app.py')).toBe('def main():\n    return 3\n');
    expect(git(cache.mirrorPath('order'), 'for-each-ref', '--format=%(refname) %(objectname)').trim()).toBe(
      [`refs/ci-diagnosis/changes/45/12345/3 ${fixture.ps3}`, `refs/heads/main ${fixture.main}`].join('\n'),
    );
  });

  it('fetches a sha that only a change ref reaches', async () => {
    const objects = await cache.open('order', fixture.remote.dir);

    expect(await objects.ensure(fixture.ps4)).toBe(fixture.ps4);
    expect(await objects.parents(fixture.ps4)).toEqual([fixture.ps3]);
    expect(await objects.readFile(fixture.ps4, 'src/app.py')).toBe('def main():\n    return 4\n');
  });

  it('fails with REVISION_NOT_FOUND naming a sha or ref the remote does not have', async () => {
    const objects = await cache.open('order', fixture.remote.dir);
    const unknown = '0badc0de'.repeat(5);

    await expect(objects.ensure(unknown)).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
      input: unknown,
    });
    await expect(objects.ensure('refs/changes/99/99/1')).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
      message: expect.stringContaining('refs/changes/99/99/1'),
    });
    await expect(objects.ensure('no-such-branch')).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
  });

  it('reuses a mirror and what was fetched into it, without the remote', async () => {
    const objects = await cache.open('order', fixture.remote.dir);
    await objects.ensure('refs/changes/45/12345/3');
    await cache.close();
    const later = new RepoCache({ dir: cacheDir });

    try {
      const reopened = await later.open('order', join(cacheDir, 'no-longer-there'));

      expect(await reopened.ensure('refs/changes/45/12345/3')).toBe(fixture.ps3);
      await expect(reopened.ensure('refs/changes/45/12345/4')).rejects.toMatchObject({ code: 'GIT_ERROR' });
    } finally {
      await later.close();
    }
  });

  it('refreshes branches from the remote', async () => {
    const remote = new TestRepo();
    remote.commit({ 'a.txt': '1\n' });
    const objects = await cache.open('refresh', remote.dir);
    const newer = remote.commit({ 'a.txt': '2\n' });

    try {
      expect(await objects.resolve('main')).not.toBe(newer);
      await objects.refresh();
      expect(await objects.resolve('main')).toBe(newer);
    } finally {
      remote.remove();
    }
  });

  it('opens a project once when asked twice at the same time', async () => {
    const [a, b] = await Promise.all([
      cache.open('twice', fixture.remote.dir),
      cache.open('twice', fixture.remote.dir),
    ]);

    expect(a).toBe(b);
    expect(readdirSync(cacheDir)).toEqual(['twice.git']);
  });

  it('fails REPO_NOT_FOUND for a remote that is not there, leaving nothing behind', async () => {
    await expect(cache.open('missing', join(cacheDir, 'nope'))).rejects.toMatchObject({
      code: 'REPO_NOT_FOUND',
    });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('refuses a remote that looks like an option', async () => {
    await expect(cache.open('evil', '--upload-pack=touch /tmp/pwned')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(existsSync('/tmp/pwned')).toBe(false);
  });
});

describe('GitObjects.ensure', () => {
  it('fetches one revision once, however many ask at the same time', async () => {
    const fixture = gerritLikeRemote();
    const cacheDir = tempDir('ensure');
    const mirror = join(cacheDir, 'm.git');
    git(cacheDir, 'clone', '-q', '--bare', fixture.remote.dir, mirror);
    const requests: FetchRequest[] = [];
    const real = new RemoteFetcher(new GitRunner(mirror), fixture.remote.dir);
    const counting: RevisionFetcher = {
      fetch: (request) => {
        requests.push(request);
        return real.fetch(request);
      },
      refresh: () => real.refresh(),
    };
    const objects = new GitObjects(mirror, { fetcher: counting });

    try {
      const shas = await Promise.all(
        Array.from({ length: 5 }, () => objects.ensure('refs/changes/45/12345/4')),
      );

      expect(new Set(shas)).toEqual(new Set([fixture.ps4]));
      expect(requests).toEqual([
        { source: 'refs/changes/45/12345/4', ref: 'refs/ci-diagnosis/changes/45/12345/4' },
      ]);
    } finally {
      await objects.close();
      fixture.remote.remove();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
