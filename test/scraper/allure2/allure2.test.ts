import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeReport, serveDir } from '../../../scraper/index.ts';
import type { ServedDir } from '../../../scraper/source/index.ts';
import { PLATFORMS_DIR } from '../../../src/cli/main.ts';
import type { FactsDocument, Issue, ScrapeMode } from '../../../src/schemas/index.ts';
import { EvidenceStore } from '../../../src/store/evidence/index.ts';
import { silentProgress } from '../../helpers/scrape-context.ts';

const REPORT = 'test/fixtures/reports/allure2';
const SINGLE = 'test/fixtures/reports/allure2-single';
const RESULTS = ['shop-vitest', 'inventory-pytest'].map((p) => `test/fixtures/reports/allure-results/${p}`);

/** Truth from the raw allure-results the report was generated from: the last attempt per test. */
function failedInResults(): Map<string, { status: string; message: string }> {
  const latest = new Map<string, { start: number; status: string; message: string; name: string }>();
  for (const dir of RESULTS) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
      const r = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      const seen = latest.get(r.historyId);
      if (!seen || seen.start < r.start) {
        latest.set(r.historyId, {
          start: r.start,
          status: r.status,
          message: r.statusDetails?.message ?? '',
          name: r.name,
        });
      }
    }
  }
  const failed = new Map<string, { status: string; message: string }>();
  for (const r of latest.values()) if (r.status === 'failed' || r.status === 'broken') failed.set(r.name, r);
  return failed;
}

describe('Allure 2 report', () => {
  let served: ServedDir;
  let evidenceDir: string;
  let store: EvidenceStore;

  const scrape = (input: string, mode: ScrapeMode): Promise<FactsDocument> =>
    scrapeReport(
      { input, platform: 'allure2', mode, limits: { concurrency: 2 } },
      { store, log: pino({ level: 'silent' }), progress: silentProgress, platformsDir: PLATFORMS_DIR },
    );

  beforeAll(async () => {
    served = await serveDir(REPORT);
    evidenceDir = mkdtempSync(join(tmpdir(), 'allure2-evidence-'));
    store = new EvidenceStore({ root: evidenceDir });
  });
  afterAll(async () => {
    store.close();
    await served.close();
    rmSync(evidenceDir, { recursive: true, force: true });
  });

  describe('data mode over HTTP', () => {
    let facts: FactsDocument;
    beforeAll(async () => {
      facts = await scrape(served.url, 'data');
    });

    it('has one issue per failed or broken test of the real run', () => {
      const truth = failedInResults();

      expect(facts.issues.map((i) => i.test.name).sort()).toEqual([...truth.keys()].sort());
      for (const issue of facts.issues) {
        const expected = truth.get(issue.test.name);
        expect(issue.status).toBe(expected?.status);
        expect(issue.facts.find((f) => f.type === 'error')?.value).toBe(
          expected?.message.split('\n')[0]?.trim(),
        );
      }
    });

    it('lists the passed tests by the key failures have, for the history', () => {
      // This report has no historyIds, so tests are keyed by fullName; the four parameters of
      // test_parse_quantity share theirs (as their failures would).
      expect(facts.run.passed_tests).toHaveLength(10);
      expect(facts.run.passed_tests).toContain('shop-vitest:test/currency.test.ts#Currency formats money');
      expect(facts.run.passed_tests).toContain('tests.test_units#test_parse_quantity');
      const failing = new Set(facts.issues.map((i) => i.test.key));
      expect(facts.run.passed_tests?.filter((k) => failing.has(k))).toEqual([]);
    });

    it('keeps each level-3 URL and how it was reached', () => {
      for (const issue of facts.issues) {
        expect(issue.url).toMatch(new RegExp(`^${served.url}index\\.html#categories/[0-9a-f]+/[0-9a-f]+/$`));
        expect(issue.reached_by).toHaveLength(2);
        expect(issue.facts).toContainEqual({ type: 'report_category', value: issue.reached_by[0] });
      }
    });

    it('decodes the GBK log attachment of the order-db test into UTF-8 evidence', async () => {
      const issue = byName(facts, 'test_fetch_open_orders_from_order_db');
      const log = issue.facts.find((f) => f.type === 'log' || f.type === 'attachment');

      expect(log?.value).toContain('连接数据库失败');
      expect(store.get(log?.evidence as string).original_encoding).toMatch(/gb/);
    });

    it('points the failure frame at project code, not the library', () => {
      const issue = byName(facts, 'test_import_csv_in_boxes');
      const failure = issue.locations.find((l) => l.role === 'failure');

      expect(failure?.file).toMatch(/inventory\/units\.py$/);
      expect(failure?.library).toBe(false);
      expect(issue.category).toBe('test_error');
    });

    it('keeps the whole trace in the evidence store, readable by fragment', async () => {
      const issue = byName(facts, 'test_import_csv_in_boxes');
      const trace = issue.facts.find((f) => f.type === 'trace');

      const fragment = await store.readFragment(trace?.evidence as string, 1, 3);

      expect(fragment.total_lines).toBeGreaterThan(3);
      expect(fragment.text.split('\n')).toHaveLength(3);
    });
  });

  it('gives identical facts in DOM mode (real Chromium) and data mode', async () => {
    const data = await scrape(served.url, 'data');
    const dom = await scrape(served.url, 'dom');

    expect(dom.run.mode).toBe('dom');
    expect(comparable(dom)).toEqual(comparable(data));
    expect(dom.run.environment).toEqual(data.run.environment);
    expect(data.run.environment).toContainEqual({
      type: 'environment',
      name: 'runner',
      value: expect.stringMatching(/^pytest /),
    });
  });

  it('reads a single-file report like the folder report', async () => {
    const folder = await scrape(REPORT, 'data');
    const single = await scrape(SINGLE, 'data');

    expect(withoutUrls(comparable(single))).toEqual(withoutUrls(comparable(folder)));
  });
});

function byName(facts: FactsDocument, name: string): Issue {
  const issue = facts.issues.find((i) => i.test.name === name);
  if (!issue) throw new Error(`no issue for ${name}`);
  return issue;
}

/** Everything but the raw page, which is HTML in one mode and JSON in the other by nature. */
function comparable(facts: FactsDocument): Array<Omit<Issue, 'source_evidence'>> {
  return facts.issues.map(({ source_evidence: _ignored, ...rest }) => rest);
}

function withoutUrls(issues: Array<Omit<Issue, 'source_evidence'>>): unknown[] {
  return issues.map(({ url: _url, ...rest }) => rest);
}

describe('Allure 2 report with one unreadable test page', () => {
  it.each(['data', 'dom'] as const)(
    'turns it into a warning on that issue in %s mode, not a crashed run',
    async (mode) => {
      const dir = mkdtempSync(join(tmpdir(), 'allure2 bad report-'));
      cpSync(REPORT, join(dir, 'report'), { recursive: true });
      const tree = JSON.parse(readFileSync(join(dir, 'report/data/categories.json'), 'utf8'));
      const victim = tree.children[0].children[0].children[0];
      writeFileSync(join(dir, 'report/data/test-cases', `${victim.uid}.json`), '{ not json');
      const store = new EvidenceStore({ root: join(dir, 'evidence') });
      try {
        const facts = await scrapeReport(
          {
            input: join(dir, 'report'),
            platform: 'allure2',
            mode,
            limits: { pageTimeoutMs: 8000, pageRetries: 0 },
          },
          { store, log: pino({ level: 'silent' }), progress: silentProgress, platformsDir: PLATFORMS_DIR },
        );

        const bad = facts.issues.find((i) => i.test.name === victim.name);
        expect(facts.issues).toHaveLength(8);
        expect(bad?.warnings.join(' ')).toMatch(/could not be read/);
        expect(facts.run.warnings.join(' ')).toContain(victim.name);
        expect(facts.issues.filter((i) => i.warnings.some((w) => /could not be read/.test(w)))).toHaveLength(
          1,
        );
      } finally {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
