import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactsDocument } from '../../src/schemas/index.ts';

const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/ci-diagnosis.js', ...args], {
      env: { ...process.env, LOG_LEVEL: 'error' },
    });
    return { code: 0, stdout, stderr };
  } catch (err: unknown) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('ci-diagnosis scrape', () => {
  let dir: string;
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cli-'));
    // Accepts the connection and never answers: a page that never loads.
    hanging = createServer(() => {});
    await new Promise<void>((ok) => hanging.listen(0, '127.0.0.1', ok));
    hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/report/`;
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise((ok) => hanging.close(ok));
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a schema-valid facts JSON for a JUnit file', async () => {
    const out = join(dir, 'facts.json');

    const result = await cli(
      'scrape',
      'test/fixtures/reports/junit/pytest-junit.xml',
      '--out',
      out,
      '--evidence-dir',
      join(dir, 'ev'),
    );

    expect(result.code).toBe(0);
    const facts = FactsDocument.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(facts.run.platform).toBe('junit');
    expect(facts.issues.map((i) => i.category)).toEqual(
      expect.arrayContaining(['dependency_resolution', 'compilation_error']),
    );
  });

  it.each([
    ['a path that does not exist', () => [join(dir, 'nowhere')], 'INPUT_NOT_FOUND', 'nowhere'],
    ['a folder that is not a report', () => ['config'], 'NOT_A_REPORT', 'config'],
    [
      'malformed XML',
      () => [writeTo(dir, 'bad.xml', '<testsuite><testcase name="a">')],
      'MALFORMED_REPORT',
      'bad.xml',
    ],
    ['an unknown platform', () => ['config', '--platform', 'teamcity'], 'INVALID_ARGUMENT', 'teamcity'],
  ])('rejects %s with a named error and exit code 2', async (_label, args, code, named) => {
    const result = await cli('scrape', ...args(), '--evidence-dir', join(dir, 'ev'));

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error [${code}]`);
    expect(result.stderr).toContain(named);
  });

  it('rejects an Allure report whose data file is not JSON', async () => {
    const report = join(dir, 'broken-report');
    cpSync('test/fixtures/reports/allure2', report, { recursive: true });
    writeFileSync(join(report, 'data/categories.json'), '{"uid": "x", "children": [');

    const result = await cli('scrape', report, '--platform', 'allure2', '--evidence-dir', join(dir, 'ev'));

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/error \[MALFORMED_REPORT\]: .*categories\.json is not valid JSON/);
  });

  it('rejects an Allure report with no test results as empty', async () => {
    const report = join(dir, 'empty-report');
    cpSync('test/fixtures/reports/allure2', report, { recursive: true });
    writeFileSync(join(report, 'data/categories.json'), '{"uid": "x", "children": []}');
    writeFileSync(join(report, 'widgets/summary.json'), '{"statistic": {"total": 0}}');

    const result = await cli('scrape', report, '--evidence-dir', join(dir, 'ev'));

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error [EMPTY_REPORT]');
  });

  it('gives up on a page that never loads with a timeout error naming the URL', async () => {
    const result = await cli(
      'scrape',
      hangingUrl,
      '--platform',
      'allure2',
      '--timeout',
      '1500',
      '--evidence-dir',
      join(dir, 'ev'),
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error [PAGE_TIMEOUT]');
    expect(result.stderr).toContain(hangingUrl);
  });
});

function writeTo(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
