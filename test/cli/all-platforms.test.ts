import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedDir, serveDir } from '../../scraper/source/index.ts';
import { FactsDocument } from '../../src/schemas/index.ts';
import { type FixturePlatform, startFixturePlatform } from '../fixtures/platform/server.ts';

const run = promisify(execFile);

interface Tree {
  uid: string;
  children: Tree[];
}

/**
 * The CLI as a user runs it: each platform's report served on 127.0.0.1, detected from what the
 * URL serves, scraped (DOM modes in real headless Chromium), written as schema-valid facts.
 */
describe('ci-diagnosis scrape on every platform, detected from its URL', () => {
  let dir: string;
  let allure2: ServedDir;
  let allure3: ServedDir;
  let junit: ServedDir;
  let platform: FixturePlatform;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'all-platforms-'));
    [allure2, allure3, junit, platform] = await Promise.all([
      serveDir('test/fixtures/reports/allure2'),
      serveDir('test/fixtures/reports/allure3'),
      serveDir('test/fixtures/reports/junit'),
      startFixturePlatform(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([allure2.close(), allure3.close(), junit.close(), platform.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const scrape = async (url: string, ...flags: string[]): Promise<FactsDocument> => {
    const out = join(dir, `${Math.random().toString(36).slice(2)}.json`);
    await run(
      process.execPath,
      ['bin/ci-diagnosis.js', 'scrape', url, '--out', out, '--evidence-dir', join(dir, 'ev'), ...flags],
      {
        env: { ...process.env, LOG_LEVEL: 'error' },
      },
    );
    return FactsDocument.parse(JSON.parse(readFileSync(out, 'utf8')));
  };

  /** Failed or broken tests in the raw allure-results both Allure reports were made from. */
  const allureFailures = (): number => {
    const tree = JSON.parse(readFileSync('test/fixtures/reports/allure2/data/categories.json', 'utf8'));
    const uids = tree.children.flatMap((c: Tree) =>
      c.children.flatMap((g: Tree) => g.children.map((t: Tree) => t.uid)),
    );
    return new Set(uids).size;
  };
  const junitFailures = (): number =>
    (readFileSync('test/fixtures/reports/junit/pytest-junit.xml', 'utf8').match(/<(failure|error)\b/g) ?? [])
      .length;
  const platformFailures = (): number =>
    platform.suites.flatMap((s) => s.cases).filter((c) => c.status === 'failed' || c.status === 'error')
      .length;

  it.each([
    ['allure2', 'dom', () => allure2.url, allureFailures],
    ['allure3', 'dom', () => allure3.url, allureFailures],
    ['junit', 'file', () => `${junit.url}pytest-junit.xml`, junitFailures],
    ['generic', 'dom', () => platform.url, platformFailures],
  ] as const)('%s in %s mode', async (expected, mode, url, failures) => {
    // The fixture platform has a page that never loads: a short timeout keeps its cost bounded.
    const facts = await scrape(url(), '--mode', mode, '--concurrency', '2', '--timeout', '5000');

    expect(facts.run.platform).toBe(expected);
    expect(facts.run.mode).toBe(mode);
    expect(facts.issues).toHaveLength(failures());
    const origin = new URL(url()).origin;
    for (const issue of facts.issues) expect(issue.url.startsWith(origin)).toBe(true);
  });
});
