import { type ChildProcess, execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatFileBatch, gitEnv } from '../../src/git/index.ts';
import { GIT_ENV, TestRepo } from './repo.ts';

describe('CatFileBatch', () => {
  const repo = new TestRepo();
  let batch: CatFileBatch;
  let blob: string;
  let empty: string;
  let big: string;

  beforeAll(() => {
    repo.commit({ 'a.txt': 'alpha\n', 'empty.txt': '', 'big.bin': Buffer.alloc(3 * 1024 * 1024, 7) });
    blob = repo.git('rev-parse', 'HEAD:a.txt');
    empty = repo.git('rev-parse', 'HEAD:empty.txt');
    big = repo.git('rev-parse', 'HEAD:big.bin');
    batch = new CatFileBatch(`${repo.dir}/.git`, gitEnv());
  });
  afterAll(async () => {
    await batch.close();
    repo.remove();
  });

  it('answers interleaved requests in order: found, empty, missing, large', async () => {
    const answers = await Promise.all([
      batch.get(blob),
      batch.get(empty),
      batch.get('0'.repeat(40)),
      batch.get(big),
      batch.get(big, 1024),
      batch.get(blob),
    ]);

    expect(
      answers.map((a) => (a.found ? `${a.type} ${a.size} ${a.content?.length ?? 'skipped'}` : a.reason)),
    ).toEqual([
      'blob 6 6',
      'blob 0 0',
      'missing',
      `blob ${3 * 1024 * 1024} ${3 * 1024 * 1024}`,
      `blob ${3 * 1024 * 1024} skipped`,
      'blob 6 6',
    ]);
    const last = answers[5];
    expect(last?.found && last.content?.toString()).toBe('alpha\n');
  });

  it('says ambiguous for an abbreviation matching several objects', async () => {
    // 1,500 objects all but guarantee two share a 4-digit prefix (git's shortest abbreviation).
    const paths = Array.from({ length: 1500 }, (_, i) => `blob-${i}.txt`);
    for (const path of paths) repo.write(path, `${path}\n`);
    execFileSync('git', ['hash-object', '-w', '--stdin-paths'], {
      cwd: repo.dir,
      input: paths.join('\n'),
      env: GIT_ENV,
    });
    const all = repo.git('cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n');
    const prefixes = all.map((oid) => oid.slice(0, 4));
    const shared = prefixes.find((prefix, i) => prefixes.indexOf(prefix) !== i) as string;

    expect(await batch.get(shared)).toEqual({ found: false, reason: 'ambiguous' });
  });

  it('refuses a name that would frame a second request', async () => {
    await expect(batch.get(`${blob}\n${blob}`)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('starts a new process after the old one died', async () => {
    await batch.get(blob);
    const child = (batch as unknown as { child: ChildProcess }).child;
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await exited;

    const answer = await batch.get(blob);

    expect(answer.found).toBe(true);
  });

  it('fails pending reads when the process dies under them', async () => {
    await batch.get(blob);
    const reads = [batch.get(big), batch.get(big), batch.get(big)];
    (batch as unknown as { child: ChildProcess }).child.kill('SIGKILL');

    const settled = await Promise.allSettled(reads);

    expect(
      settled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : 'read')),
    ).toContain('GIT_ERROR');
  });
});
