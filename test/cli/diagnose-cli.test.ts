import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneCase, loadCase } from '../../src/eval/case.ts';
import { ReviewInput } from '../../src/gerrit/index.ts';
import { DiagnosisRun } from '../../src/schemas/index.ts';

const exec = promisify(execFile);
const CASE = new URL('../corpus/pre-existing/', import.meta.url).pathname;

describe('ci-diagnosis diagnose', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diagnose-cli-'));
  let repo: { dir: string; remove(): Promise<void> };
  let revision = '';
  let baseRevision = '';

  beforeAll(async () => {
    const { input } = await loadCase(CASE);
    repo = await cloneCase(input);
    revision = input.revision;
    baseRevision = input.base;
  });
  afterAll(async () => {
    await repo.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('diagnoses a report against the repository with the rules engine, using the branch history', async () => {
    const out = join(dir, 'diagnosis.json');
    const { stderr } = await exec(
      process.execPath,
      [
        'bin/ci-diagnosis.js',
        'diagnose',
        '--report',
        join(CASE, 'report'),
        '--repo',
        repo.dir,
        '--revision',
        revision,
        '--history',
        `allure2:${join(CASE, 'history/base')}@${baseRevision}`,
        '--project',
        'textkit',
        '--out',
        out,
        '--repair-report',
        join(dir, 'repair.md'),
        '--review-out',
        join(dir, 'review.json'),
        '--evidence-dir',
        join(dir, 'ev'),
        '--signatures-dir',
        join(dir, 'sig'),
      ],
      { env: { ...process.env, LOG_LEVEL: 'warn', ANTHROPIC_API_KEY: '' } },
    );
    expect(stderr).toContain('no model key configured: the built-in rules engine diagnoses this run');
    const run = DiagnosisRun.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(run.engine).toEqual({
      name: 'rules',
      model: null,
      note: 'no model key configured',
    });
    expect(run.failures.map((f) => [f.verdict, f.category])).toEqual([['pre_existing', 'pre_existing']]);
    expect(run.failures[0]?.change?.target).toBe('none');
    expect(readFileSync(join(dir, 'repair.md'), 'utf8')).toMatch(
      /\| 1 \| .* \| pre_existing \| pre_existing \|/,
    );
    const review = ReviewInput.parse(JSON.parse(readFileSync(join(dir, 'review.json'), 'utf8')));
    expect(review.message).toContain('pre-existing (not caused by this change)');
  });

  it('refuses the claude engine without a key, naming the variable', async () => {
    const failed = exec(
      process.execPath,
      [
        'bin/ci-diagnosis.js',
        'diagnose',
        '--report',
        join(CASE, 'report'),
        '--repo',
        repo.dir,
        '--revision',
        revision,
        '--engine',
        'claude',
      ],
      { env: { ...process.env, ANTHROPIC_API_KEY: '' } },
    );
    await expect(failed).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('error [INVALID_ARGUMENT]: the claude engine needs ANTHROPIC_API_KEY'),
    });
  });

  it('takes facts scraped before (--facts), reading their evidence from the same store', async () => {
    const facts = join(dir, 'facts.json');
    const ev = join(dir, 'ev2');
    const env = { ...process.env, LOG_LEVEL: 'error', ANTHROPIC_API_KEY: '' };
    await exec(
      process.execPath,
      ['bin/ci-diagnosis.js', 'scrape', join(CASE, 'report'), '--out', facts, '--evidence-dir', ev],
      { env },
    );
    const { stdout } = await exec(
      process.execPath,
      [
        'bin/ci-diagnosis.js',
        'diagnose',
        '--facts',
        facts,
        '--repo',
        repo.dir,
        '--revision',
        revision,
        '--evidence-dir',
        ev,
        '--signatures-dir',
        join(dir, 'sig2'),
      ],
      { env },
    );
    const run = DiagnosisRun.parse(JSON.parse(stdout));
    expect(run.failures).toHaveLength(1);
    expect(run.failures[0]?.check?.findings.filter((f) => f.severity === 'error')).toEqual([]);
    await expect(
      exec(
        process.execPath,
        ['bin/ci-diagnosis.js', 'diagnose', '--repo', repo.dir, '--revision', revision],
        { env },
      ),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('diagnose needs --report <url|dir|file> or --facts <file>'),
    });
  });

  it('--dry-run prints the review it would post; --post without a Gerrit is refused', async () => {
    const env = { ...process.env, LOG_LEVEL: 'error', ANTHROPIC_API_KEY: '' };
    const args = [
      'bin/ci-diagnosis.js',
      'diagnose',
      '--report',
      join(CASE, 'report'),
      '--repo',
      repo.dir,
      '--revision',
      revision,
      '--evidence-dir',
      join(dir, 'ev3'),
      '--signatures-dir',
      join(dir, 'sig3'),
    ];
    const { stdout } = await exec(process.execPath, [...args, '--dry-run'], { env });
    const review = ReviewInput.parse(JSON.parse(stdout));
    expect(review.tag).toBe('autogenerated:ci-diagnosis');
    await expect(exec(process.execPath, [...args, '--post'], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining('error [INVALID_ARGUMENT]: --post needs --gerrit <url>'),
    });
  });
});
