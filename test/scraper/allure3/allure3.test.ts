import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allure3Adapter } from '../../../scraper/platforms/allure3/index.ts';
import type { ScrapeSummary } from '../../../scraper/platforms/types.ts';
import type { RawFailure } from '../../../scraper/raw.ts';
import { type ServedDir, serveDir } from '../../../scraper/source/index.ts';
import { openReportSource } from '../../../scraper/source/report-source.ts';
import { decodeBytes } from '../../../scraper/text/index.ts';
import { DiagnosisError } from '../../../src/errors/index.ts';
import type { ScrapeMode } from '../../../src/schemas/index.ts';
import { collectingContext } from '../../helpers/scrape-context.ts';

const REPORT = resolve('test/fixtures/reports/allure3');
const RESULTS = ['shop-vitest', 'inventory-pytest'].map((p) =>
  resolve(`test/fixtures/reports/allure-results/${p}`),
);

interface RawResult {
  name: string;
  fullName: string;
  historyId: string;
  status: string;
  start: number;
  statusDetails?: { message?: string; expected?: string; actual?: string };
}

/** Truth from the raw results the report was generated from: the latest attempt per historyId, failed or broken. */
function failedInResults(): Map<string, RawResult> {
  const latest = new Map<string, RawResult>();
  for (const dir of RESULTS) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
      const result = JSON.parse(readFileSync(join(dir, file), 'utf8')) as RawResult;
      const seen = latest.get(result.historyId);
      if (seen === undefined || seen.start < result.start) latest.set(result.historyId, result);
    }
  }
  return new Map(
    [...latest.values()]
      .filter((r) => r.status === 'failed' || r.status === 'broken')
      .map((r) => [r.fullName, r]),
  );
}

/** The README's table of the 8 failures: fullName → [status, category, first line of the message]. */
const README_TABLE: Record<string, [string, string, string]> = {
  'shop-vitest:test/checkout.test.ts#Checkout posts the order total to the ledger': [
    'failed',
    'Product errors',
    'ledger total for order ORD-1001 does not match cart total',
  ],
  'shop-vitest:test/checkout.test.ts#Checkout places an order end to end': [
    'failed',
    'Product errors',
    "expected 'declined' to be 'captured' // Object.is equality",
  ],
  "shop-vitest:test/cart.test.ts#Cart shipping cost to 'US' for 2100 g is 2290": [
    'failed',
    'Product errors',
    'expected 2690 to be 2290 // Object.is equality',
  ],
  'tests.test_stock#test_reorder_report_includes_skus_at_reorder_point': [
    'failed',
    'Product errors',
    "AssertionError: assert ['BAG-007'] == ['BAG-007', 'TEE-042']",
  ],
  'shop-vitest:test/checkout.test.ts#Checkout quotes shipping for a guest customer': [
    'broken',
    'Test errors',
    "Cannot read properties of undefined (reading 'country')",
  ],
  'tests.test_stock#test_import_csv_in_boxes': [
    'broken',
    'Test errors',
    "ValueError: unknown unit of measure: 'dozen' (known: pcs, box, pallet)",
  ],
  'shop-vitest:test/checkout.test.ts#Checkout reserves stock in the warehouse': [
    'broken',
    'Infrastructure problems',
    'Test timed out in 500ms.',
  ],
  'tests.test_stock#test_fetch_open_orders_from_order_db': [
    'broken',
    'Infrastructure problems',
    'ConnectionRefusedError: [Errno 111] Connection refused',
  ],
};

async function scrape(
  input: string,
  mode: ScrapeMode,
): Promise<{ failures: RawFailure[]; summary: ScrapeSummary }> {
  const source = await openReportSource(input);
  const collected = collectingContext(source, mode);
  try {
    const summary = await allure3Adapter.scrape(collected.ctx);
    return { failures: collected.failures(), summary };
  } finally {
    await collected.close();
  }
}

async function scrapeError(input: string, mode: ScrapeMode): Promise<DiagnosisError> {
  const err = await scrape(input, mode).then(
    () => new Error(`scraping ${input} succeeded`),
    (e: unknown) => e,
  );
  if (!(err instanceof DiagnosisError)) throw err;
  return err;
}

function byFullName(failures: RawFailure[]): Map<string, RawFailure> {
  return new Map(failures.map((f) => [f.full_name ?? f.name, f]));
}

describe('Allure 3 report', () => {
  let served: ServedDir;
  let data: { failures: RawFailure[]; summary: ScrapeSummary };
  let dom: { failures: RawFailure[]; summary: ScrapeSummary };

  beforeAll(async () => {
    served = await serveDir(REPORT);
    data = await scrape(served.url, 'data');
    dom = await scrape(served.url, 'dom');
  });
  afterAll(() => served.close());

  describe('data mode', () => {
    it('has one failure per failed or broken test of the real run', () => {
      const truth = failedInResults();
      const found = byFullName(data.failures);

      expect([...found.keys()].sort()).toEqual([...truth.keys()].sort());
      expect([...found.keys()].sort()).toEqual(Object.keys(README_TABLE).sort());
      for (const [fullName, [status, category, firstLine]] of Object.entries(README_TABLE)) {
        const failure = found.get(fullName);
        expect(failure?.status).toBe(status);
        expect(failure?.report_category).toBe(category);
        expect(failure?.message?.split('\n')[0]).toBe(firstLine);
        expect(failure?.message).toBe(truth.get(fullName)?.statusDetails?.message?.trimEnd());
        expect(failure?.reached_by).toEqual([category, failure?.message]);
      }
      expect(data.summary).toMatchObject({ mode: 'data', failures: 8, warnings: [] });
    });

    it('leaves out the pytest test that passed on its rerun', () => {
      expect(data.failures.some((f) => f.name === 'test_unit_cache_warms_up')).toBe(false);
    });

    it('lists the passed tests keyed as failures are (fullName and parameters), the rerun pass among them', () => {
      const passed = data.summary.passed ?? [];
      expect(passed).toContain('shop-vitest:test/currency.test.ts#Currency formats money');
      expect(passed.some((k) => k.endsWith('#test_unit_cache_warms_up'))).toBe(true);
      expect(
        passed.some((k) => k.includes("shipping cost to 'DE'") && k.endsWith('[country=DE, grams=900]')),
      ).toBe(true);
      const failing = new Set(data.failures.map((f) => f.key));
      expect(passed.filter((k) => failing.has(k))).toEqual([]);
    });

    it('links each failure to its level-3 route', () => {
      const ids = new Set(
        readdirSync(join(REPORT, 'data/test-results')).map((f) => f.replace(/\.json$/, '')),
      );

      for (const failure of data.failures) {
        const [, id] = failure.url.match(/^(?:.*)index\.html#categories\/([0-9a-f]+)$/) ?? [];
        expect(failure.url.startsWith(`${served.url}index.html#categories/`)).toBe(true);
        expect(ids.has(id ?? '')).toBe(true);
      }
    });

    it('reads steps, labels and the attachment of "places an order end to end"', () => {
      const order = byFullName(data.failures).get(
        'shop-vitest:test/checkout.test.ts#Checkout places an order end to end',
      );

      expect(order?.steps.map((s) => [s.name, s.status, s.depth])).toEqual([
        ['Fill the cart', 'passed', 0],
        ['Create the order', 'passed', 0],
        ['Charge the card', 'failed', 0],
        ['POST /v2/charges', 'passed', 1],
        ['expect("declined").toBe("captured")', 'failed', 1],
      ]);
      // The UI draws the test's error under the deepest step repeating it, not on each parent.
      expect(order?.steps.find((s) => s.name.startsWith('expect('))?.message).toBe(order?.message);
      expect(order?.labels).toContainEqual({ name: 'feature', value: 'Checkout' });
      expect(order?.labels).toContainEqual({ name: 'severity', value: 'critical' });
      expect(order?.attachments.map((a) => [a.name, a.media_type])).toEqual([
        ['payment-gateway.log', 'text/plain'],
      ]);
      const log = order?.attachments[0]?.body?.toString('utf8').trimEnd();
      expect(log?.split('\n')).toHaveLength(3);
      expect(log?.endsWith('WARN  gateway: declined code=51 reason="insufficient funds" limit=5000')).toBe(
        true,
      );
      expect([order?.expected, order?.actual]).toEqual(['captured', 'declined']);
    });

    it('gives expected/actual and parameters of the failing it.each case', () => {
      const truth = failedInResults();
      const fullName = "shop-vitest:test/cart.test.ts#Cart shipping cost to 'US' for 2100 g is 2290";
      const cart = byFullName(data.failures).get(fullName);

      expect(cart?.parameters).toEqual([
        { name: 'country', value: 'US' },
        { name: 'grams', value: '2100' },
      ]);
      expect(cart?.key).toBe(`${fullName}[country=US, grams=2100]`);
      expect(cart?.expected).toBe(truth.get(fullName)?.statusDetails?.expected);
      expect(cart?.actual).toBe(truth.get(fullName)?.statusDetails?.actual);
    });

    it('keeps the GBK attachment as raw bytes', () => {
      const db = byFullName(data.failures).get('tests.test_stock#test_fetch_open_orders_from_order_db');
      const log = db?.attachments.find((a) => a.name === 'order-service.log');

      expect(log?.body?.toString('utf8')).not.toContain('订单服务');
      expect(decodeBytes(log?.body ?? Buffer.alloc(0)).text).toContain('连接数据库失败: 超时 (订单服务)');
      expect(db?.steps.map((s) => [s.name, s.status])).toContainEqual([
        'Connect to the order database',
        'broken',
      ]);
    });

    it('states the environment from environment.properties', () => {
      expect(data.summary.environment).toEqual(
        expect.arrayContaining([
          { name: 'runner', value: 'pytest 9.2.0' },
          { name: 'python.version', value: '3.11.7' },
          { name: 'os.name', value: 'Debian GNU/Linux 12 (bookworm)' },
        ]),
      );
    });

    it('reads the same from disk as over HTTP, but for the URL', async () => {
      const fromDisk = await scrape(REPORT, 'data');

      const path = (f: RawFailure) => f.url.replace(/^.*#/, '#');
      expect(fromDisk.failures.map((f) => ({ ...f, url: path(f) }))).toEqual(
        data.failures.map((f) => ({ ...f, url: path(f) })),
      );
    });
  });

  describe('DOM mode (headless Chromium)', () => {
    it('gives exactly what data mode gives, but for the raw source', () => {
      const withoutSource = (f: RawFailure) => ({ ...f, source: null });

      expect(dom.failures).toHaveLength(8);
      expect(dom.failures.map(withoutSource)).toEqual(data.failures.map(withoutSource));
      expect(dom.summary).toMatchObject({ mode: 'dom', failures: 8, warnings: [] });
    });

    it('keeps the page HTML as source, data mode the JSON', () => {
      for (const failure of dom.failures) {
        expect(failure.source?.kind).toBe('page_html');
        expect(failure.source?.text).toContain('data-testid="test-result-info-title"');
      }
      for (const failure of data.failures) {
        expect(failure.source?.kind).toBe('page_data');
        expect(JSON.parse(failure.source?.text ?? '').name).toBe(failure.name);
      }
    });

    it('refuses a report on disk, whose UI cannot load its data from file://', async () => {
      const err = await scrapeError(REPORT, 'dom');

      expect(err.code).toBe('INVALID_ARGUMENT');
      expect(err.message).toContain(REPORT);
    });
  });

  describe('detect', () => {
    it('knows Allure 3 from Allure 2 and JUnit', async () => {
      expect(await allure3Adapter.detect(await openReportSource(REPORT))).toBe(true);
      expect(await allure3Adapter.detect(await openReportSource(served.url))).toBe(true);
      expect(await allure3Adapter.detect(await openReportSource('test/fixtures/reports/allure2'))).toBe(
        false,
      );
      expect(await allure3Adapter.detect(await openReportSource('test/fixtures/reports/junit'))).toBe(false);
      expect(
        await allure3Adapter.detect(await openReportSource('test/fixtures/reports/junit/pytest-junit.xml')),
      ).toBe(false);
    });
  });
});

describe('Allure 3: single-file report (singleFile: true)', () => {
  let dir: string;
  let served: ServedDir;

  beforeAll(async () => {
    // No single-file Allure 3 report is committed: make one from the same raw results with the
    // fixture's own allurerc, exactly as build-all.sh makes allure3/ (allure 3.18.0, real run).
    dir = mkdtempSync(join(tmpdir(), 'allure3-single-'));
    writeFileSync(
      join(dir, 'allurerc.mjs'),
      `import base from ${JSON.stringify(resolve('test/fixtures/build/allurerc.mjs'))};
export default { ...base, output: ${JSON.stringify(join(dir, 'report'))},
  plugins: { awesome: { options: { ...base.plugins.awesome.options, singleFile: true } } } };
`,
    );
    execFileSync(
      process.execPath,
      [
        resolve('node_modules/allure/cli.js'),
        'generate',
        '--config',
        join(dir, 'allurerc.mjs'),
        '--output',
        join(dir, 'report'),
        ...RESULTS,
      ],
      { stdio: 'pipe' },
    );
    served = await serveDir(join(dir, 'report'));
  });
  afterAll(async () => {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the data embedded in index.html, in both modes, as from the multi-file report', async () => {
    const page = join(dir, 'report', 'index.html');
    const fromFile = await scrape(page, 'data');
    const fromHttp = await scrape(served.url, 'data');
    const fromDom = await scrape(served.url, 'dom');
    const multi = await scrape(REPORT, 'data');

    expect(readdirSync(join(dir, 'report'))).not.toContain('data');
    const comparable = (f: RawFailure) => ({ ...f, url: f.url.replace(/^.*#/, '#'), source: null });
    const expected = multi.failures.map(comparable);
    expect(fromFile.failures.map(comparable)).toEqual(expected);
    expect(fromHttp.failures.map(comparable)).toEqual(expected);
    expect(fromDom.failures.map(comparable)).toEqual(expected);
    expect(fromFile.summary.environment).toEqual(multi.summary.environment);
    expect(await allure3Adapter.detect(await openReportSource(page))).toBe(true);
  });
});

describe('Allure 3: bad inputs', () => {
  let dir: string;
  let served: ServedDir;

  /** A copy of the fixture report with `change` applied, served under /<name>/. */
  const variant = (name: string, change: (root: string) => void): string => {
    const root = join(dir, name);
    cpSync(REPORT, root, { recursive: true });
    change(root);
    return `${served.url}${name}/`;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'allure3-bad-'));
    served = await serveDir(dir);
  });
  afterAll(async () => {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a URL with nothing behind it is INPUT_NOT_FOUND naming it', async () => {
    const err = await scrapeError(`${served.url}missing/`, 'data');

    expect(err.code).toBe('INPUT_NOT_FOUND');
    expect(err.message).toContain(`${served.url}missing/`);
  });

  it("a multi-file report's index.html alone is INVALID_ARGUMENT pointing at its folder", async () => {
    const err = await scrapeError(join(REPORT, 'index.html'), 'data');

    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('give the folder');
  });

  it('a missing folder is INPUT_NOT_FOUND', async () => {
    const err = await scrapeError(join(dir, 'no-such-report'), 'data');

    expect(err.code).toBe('INPUT_NOT_FOUND');
    expect(err.input).toBe(join(dir, 'no-such-report'));
  });

  it('an Allure 2 report is NOT_A_REPORT in both modes', async () => {
    const allure2 = await serveDir('test/fixtures/reports/allure2');
    try {
      for (const mode of ['data', 'dom'] as const) {
        const err = await scrapeError(allure2.url, mode);

        expect(err.code).toBe('NOT_A_REPORT');
        expect(err.message).toContain(`${allure2.url}widgets/categories.json`);
      }
    } finally {
      await allure2.close();
    }
  });

  it('a corrupt categories widget is MALFORMED_REPORT naming the file', async () => {
    const url = variant('corrupt', (root) => {
      const path = join(root, 'widgets/categories.json');
      writeFileSync(path, readFileSync(path, 'utf8').slice(0, 100));
    });

    const err = await scrapeError(url, 'data');

    expect(err.code).toBe('MALFORMED_REPORT');
    expect(err.message).toContain(`${url}widgets/categories.json`);
  });

  it('a report without tests is EMPTY_REPORT', async () => {
    const url = variant('empty', (root) => {
      writeFileSync(join(root, 'widgets/categories.json'), '{"roots":[],"nodes":{}}');
      const summaryPath = join(root, 'summary.json');
      const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
      writeFileSync(summaryPath, JSON.stringify({ ...summary, stats: { total: 0 } }));
    });

    for (const mode of ['data', 'dom'] as const) {
      const err = await scrapeError(url, mode);

      expect(err.code).toBe('EMPTY_REPORT');
      expect(err.message).toContain(url);
    }
  });

  it('an unreadable test result becomes a warning on that failure, not the end of the run', async () => {
    let brokenId = '';
    const url = variant('one-broken', (root) => {
      const results = join(root, 'data/test-results');
      for (const file of readdirSync(results)) {
        const result = JSON.parse(readFileSync(join(results, file), 'utf8'));
        if (result.name === 'posts the order total to the ledger') {
          brokenId = result.id;
          writeFileSync(join(results, file), '{"id": ');
        }
      }
    });

    const { failures, summary } = await scrape(url, 'data');

    expect(failures).toHaveLength(8);
    const broken = failures.find((f) => f.url.endsWith(brokenId));
    expect(broken?.status).toBe('unknown');
    expect(broken?.warnings.join('\n')).toContain(`data/test-results/${brokenId}.json`);
    expect(summary.warnings.some((w) => w.includes('posts the order total to the ledger'))).toBe(true);
  });
});
