import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { DiagnosisDraft } from '../../src/schemas/index.ts';
import { type Author, scriptedModel } from '../acceptance/scripted-model.ts';
import { MessagesServer } from '../helpers/messages-server.ts';

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

  it('with a key, runs a model row once per --model, to compare them', async () => {
    const draft: Author = (r): DiagnosisDraft => ({
      issue_id: r.issueId,
      test: r.test,
      report_url: r.reportUrl,
      verdict: 'caused_by_change',
      category: 'code_regression',
      place: { level: 'function', file: 'pricing/price.py', function: 'gross_price', lines: null },
      why: [
        {
          text: 'the price assertion failed',
          cites: [{ kind: 'fact', issue_id: r.issueId, index: r.errorFact }],
        },
      ],
      change: null,
      fix: null,
      verify: ['pytest tests/test_price.py'],
      missing_evidence: [],
      alternatives: [],
    });
    const server = await MessagesServer.start(
      Array.from({ length: 40 }, () => scriptedModel('pricing/price.py', draft)),
    );
    const out = join(dir, 'models');
    try {
      const { stdout } = await exec(
        process.execPath,
        [
          'bin/ci-diagnosis.js',
          'eval',
          '--corpus',
          'test/corpus',
          '--cases',
          'price-rounding',
          '--ablation',
          'facts+gate+skill',
          '--model',
          'claude-a,claude-b',
          '--out',
          out,
        ],
        {
          env: {
            ...process.env,
            LOG_LEVEL: 'error',
            ANTHROPIC_API_KEY: 'test-key',
            ANTHROPIC_BASE_URL: server.url,
          },
        },
      );
      const rows = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).rows;
      expect(
        rows.map((r: { ablation: string; engine: string; status: string }) => [
          r.ablation,
          r.engine,
          r.status,
        ]),
      ).toEqual([
        ['rules', 'rules', 'ran'],
        ['facts+gate+skill', 'claude-a', 'ran'],
        ['facts+gate+skill', 'claude-b', 'ran'],
      ]);
      expect(rows[1].metrics.tokens).toBeGreaterThan(0);
      expect(stdout).toContain('facts+gate+skill (claude-b)');
      expect(new Set(server.requests.map((q) => q.body.model))).toEqual(new Set(['claude-a', 'claude-b']));
    } finally {
      await server.close();
    }
  });
});
