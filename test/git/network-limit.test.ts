import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitNetworkLimit, RepoCache, unlimitedGit } from '../../src/git/index.ts';
import { TestRepo, tempDir } from './repo.ts';

const RUNS = 6;

/**
 * The limit is checked where it matters, at the git processes: a `git` first on PATH logs when
 * each clone or fetch starts and ends (and holds it 150 ms, so that unlimited ones would overlap).
 */
describe('the git network limit', () => {
  const bin = tempDir('git-wrapper');
  const log = join(bin, 'network.log');
  let remote: TestRepo;
  let ps3: string;

  beforeAll(() => {
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      join(bin, 'git'),
      [
        '#!/bin/sh',
        'case " $* " in *" clone "*|*" fetch "*) net=1 ;; *) net=0 ;; esac',
        `[ "$net" = 1 ] && { echo "+ $(date +%s%N)" >>'${log}'; sleep 0.15; }`,
        `'${realGit}' "$@"`,
        'rc=$?',
        `[ "$net" = 1 ] && echo "- $(date +%s%N)" >>'${log}'`,
        'exit $rc',
        '',
      ].join('\n'),
    );
    chmodSync(join(bin, 'git'), 0o755);
    remote = new TestRepo();
    remote.commit({ 'src/app.py': 'def main():\n    return 1\n' }, 'base');
    remote.git('checkout', '-q', '-b', 'change');
    ps3 = remote.commit({ 'src/app.py': 'def main():\n    return 3\n' }, 'patch set 3');
    remote.git('update-ref', 'refs/changes/45/12345/3', ps3);
    remote.git('checkout', '-q', 'main');
    remote.git('branch', '-q', '-D', 'change');
  });
  afterAll(() => {
    remote.remove();
    rmSync(bin, { recursive: true, force: true });
  });

  /** Runs at once as the service's stages run them: each with its own cache, one project each. */
  async function concurrentRuns(limit: GitNetworkLimit): Promise<{ operations: number; peak: number }> {
    rmSync(log, { force: true });
    const dir = tempDir('repo-cache');
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
    const caches = Array.from({ length: RUNS }, () => new RepoCache({ dir, env, networkLimit: limit }));
    try {
      await Promise.all(
        caches.map(async (cache, i) => {
          const objects = await cache.open(`project-${i}`, remote.dir);
          expect(await objects.ensure('refs/changes/45/12345/3')).toBe(ps3);
        }),
      );
    } finally {
      await Promise.all(caches.map((cache) => cache.close()));
      rmSync(dir, { recursive: true, force: true });
    }
    return overlap(existsSync(log) ? readFileSync(log, 'utf8') : '');
  }

  it('runs no more clones and fetches at once than the shared limit allows', async () => {
    const { operations, peak } = await concurrentRuns(pLimit(2));
    // A clone and a change-ref fetch per run: every one of them went through the limit.
    expect(operations).toBe(2 * RUNS);
    expect(peak).toBe(2);
  });

  it('(the control: without a limit the same runs overlap further)', async () => {
    const { operations, peak } = await concurrentRuns(unlimitedGit);
    expect(operations).toBe(2 * RUNS);
    expect(peak).toBeGreaterThan(2);
  });
});

/** How many logged operations there were, and the most that ran at one time. */
function overlap(text: string): { operations: number; peak: number } {
  const events = text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ({ delta: line.startsWith('+') ? 1 : -1, at: BigInt(line.slice(2)) }))
    // An end and a start at the same instant: count the end first, not a false overlap.
    .sort((a, b) => (a.at === b.at ? a.delta - b.delta : a.at < b.at ? -1 : 1));
  let running = 0;
  let peak = 0;
  for (const event of events) {
    running += event.delta;
    peak = Math.max(peak, running);
  }
  return { operations: events.filter((e) => e.delta === 1).length, peak };
}
