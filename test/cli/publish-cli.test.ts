import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { gerritCredentials } from '../../src/cli/publish.ts';
import { ReviewInput } from '../../src/gerrit/index.ts';
import { TempRepo } from '../helpers/git-repo.ts';
import { CART_TS, failure, sampleRun } from '../publish/sample.ts';

const exec = promisify(execFile);

function cli(args: string[], env: Record<string, string> = {}) {
  return exec(process.execPath, ['bin/ci-diagnosis.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
  });
}

describe('ci-diagnosis publish', () => {
  const repo = new TempRepo();
  const dir = mkdtempSync(join(tmpdir(), 'publish-cli-'));
  afterAll(() => {
    repo.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--dry-run --repo writes the review JSON gated by the git patchset', async () => {
    repo.commit({ 'src/cart.ts': CART_TS.replace('total * 0', 'total'), 'src/util.ts': 'x\n' }, 'base');
    const revision = repo.commit({ 'src/cart.ts': CART_TS }, 'break the total');
    const run = sampleRun(
      [
        failure(),
        failure({
          issue_id: '2',
          place: { level: 'file', file: 'src/util.ts', function: null, lines: null },
        }),
      ],
      { change: { project: 'shop', number: 7, patchset: 2, revision } },
    );
    writeFileSync(join(dir, 'diagnosis.json'), JSON.stringify(run));
    const out = join(dir, 'review.json');
    await cli(['publish', '-d', join(dir, 'diagnosis.json'), '--repo', repo.dir, '--dry-run', '--out', out]);
    const review = ReviewInput.parse(JSON.parse(readFileSync(out, 'utf8')));
    // src/util.ts is not in this patchset: no comment there, only the inline one on src/cart.ts.
    expect(Object.keys(review.comments ?? {})).toEqual(['src/cart.ts']);
    expect(review.comments?.['src/cart.ts']?.[0]).toMatchObject({
      line: 4,
      range: { start_line: 3, end_line: 4 },
    });
    expect(review.message).toContain('ci-diagnosis run `run-1`');
  });

  it('names the bad field of an invalid diagnosis and exits 2', async () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...sampleRun(), failures: [{ issue_id: 1 }] }));
    const failed = cli(['publish', '-d', join(dir, 'bad.json'), '--repo', repo.dir, '--dry-run']);
    await expect(failed).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'error [DIAGNOSIS_INVALID]: diagnosis is not valid at failures.0.issue_id',
      ),
    });
  });

  it('refuses to post without a Gerrit and to read credentials from anywhere but the environment', async () => {
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(sampleRun()));
    await expect(cli(['publish', '-d', join(dir, 'ok.json'), '--repo', repo.dir])).rejects.toMatchObject({
      stderr: expect.stringContaining('publish needs --gerrit <url>, or --repo <path> with --dry-run'),
    });
    expect(() => gerritCredentials({})).toThrow(/GERRIT_USERNAME is not set/);
    expect(() => gerritCredentials({ GERRIT_USERNAME: 'bot' })).toThrow(
      /set GERRIT_PASSWORD or GERRIT_PASSWORD_FILE/,
    );
    expect(gerritCredentials({ GERRIT_USERNAME: 'bot', GERRIT_PASSWORD: 'pw' })).toEqual({
      username: 'bot',
      password: 'pw',
    });
    const file = join(dir, 'pw');
    writeFileSync(file, 'from-file\n');
    expect(gerritCredentials({ GERRIT_USERNAME: 'bot', GERRIT_PASSWORD_FILE: file })).toEqual({
      username: 'bot',
      password: 'from-file',
    });
    expect(() =>
      gerritCredentials({ GERRIT_USERNAME: 'bot', GERRIT_PASSWORD_FILE: join(dir, 'none') }),
    ).toThrow(/GERRIT_PASSWORD_FILE .*none could not be read/);
  });
});
