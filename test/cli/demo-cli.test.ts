import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ReviewInput } from '../../src/gerrit/index.ts';
import { DiagnosisRun } from '../../src/schemas/index.ts';

const exec = promisify(execFile);

describe('ci-diagnosis demo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'demo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the whole pipeline on the bundled example without a key or a server', async () => {
    const { stdout } = await exec(
      process.execPath,
      ['bin/ci-diagnosis.js', 'demo', '--out-dir', dir, '--mode', 'data'],
      {
        env: { ...process.env, LOG_LEVEL: 'error', ANTHROPIC_API_KEY: '' },
      },
    );
    expect(stdout).toContain('2 failures diagnosed (rules engine)');
    const run = DiagnosisRun.parse(JSON.parse(readFileSync(join(dir, 'diagnosis.json'), 'utf8')));
    expect(run.failures.map((f) => [f.verdict, f.category, f.place.file])).toEqual([
      ['caused_by_change', 'code_regression', 'pricing/price.py'],
      ['caused_by_change', 'code_regression', 'pricing/price.py'],
    ]);
    const review = ReviewInput.parse(JSON.parse(readFileSync(join(dir, 'review.json'), 'utf8')));
    expect(review.message).toContain('Diagnosed by the built-in rules engine (no model key configured)');
    expect(Object.keys(review.comments ?? {})).toEqual(['pricing/price.py']);
    expect(existsSync(join(dir, 'repair.md'))).toBe(true);
    expect(existsSync(join(dir, 'facts.json'))).toBe(true);
    const page = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(page).toContain('<!doctype html>');
    expect(page).toContain('pricing/price.py');
  });
});
