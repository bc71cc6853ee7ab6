import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);

describe('ci-diagnosis eval', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scores two corpus cases with the rules engine and skips the model rows without a key', async () => {
    const { stdout } = await exec(
      process.execPath,
      [
        'bin/ci-diagnosis.js',
        'eval',
        '--corpus',
        'test/corpus',
        '--cases',
        'price-rounding,db-refused',
        '--out',
        dir,
      ],
      { env: { ...process.env, LOG_LEVEL: 'error', ANTHROPIC_API_KEY: '' } },
    );
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(
      /^eval: verdict=\d+\.\d% category=\d+\.\d% file=\d+\.\d% line=\d+\.\d% false_precise=(\d+\.\d%|n\/a) unsupported=\d+\.\d%$/,
    );
    expect(stdout).toContain('diff+model: skipped — no ANTHROPIC_API_KEY');

    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    const [rules, ...model] = results.rows;
    expect(rules).toMatchObject({ ablation: 'rules', engine: 'rules', status: 'ran' });
    expect(rules.cases.map((c: { id: string; error: string | null }) => [c.id, c.error])).toEqual([
      ['db-refused', null],
      ['price-rounding', null],
    ]);
    expect(rules.metrics).toMatchObject({ cases: 2, failures: 5, verdict: 100, tokens: 0 });
    expect(model.map((r: { status: string }) => r.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);

    expect(existsSync(join(dir, 'index.html'))).toBe(true);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toContain('<script');
  });
});
