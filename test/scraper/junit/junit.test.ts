import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { junitAdapter } from '../../../scraper/platforms/junit/index.ts';
import type { ScrapeSummary } from '../../../scraper/platforms/types.ts';
import type { RawFailure } from '../../../scraper/raw.ts';
import { type ServedDir, serveDir } from '../../../scraper/source/index.ts';
import { openReportSource } from '../../../scraper/source/report-source.ts';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { collectingContext } from '../../helpers/scrape-context.ts';

const JUNIT = resolve('test/fixtures/reports/junit');
const SUREFIRE_TAX = join(JUNIT, 'surefire-com.example.billing.TaxCalculatorTest.xml');
const SUREFIRE_BILLING = join(JUNIT, 'surefire-com.example.billing.BillingServiceTest.xml');
const PYTEST = join(JUNIT, 'pytest-junit.xml');
const VITEST = join(JUNIT, 'vitest-junit.xml');
const GO = join(JUNIT, 'go-junit.xml');

async function scrape(input: string): Promise<{ failures: RawFailure[]; summary: ScrapeSummary }> {
  const source = await openReportSource(input);
  const collected = collectingContext(source, 'file');
  const summary = await junitAdapter.scrape(collected.ctx);
  return { failures: collected.failures(), summary };
}

function byKey(failures: RawFailure[]): Map<string, RawFailure> {
  return new Map(failures.map((f) => [f.key, f]));
}

async function scrapeError(input: string): Promise<DiagnosisError> {
  const err = await scrape(input).then(
    () => new Error(`scraping ${input} succeeded`),
    (e: unknown) => e,
  );
  if (!(err instanceof DiagnosisError)) throw err;
  return err;
}

function text(body: Buffer | null): string {
  return body?.toString('utf8') ?? '';
}

describe('JUnit XML: Surefire', () => {
  it('reads the assertion failure, its trace and the JVM environment', async () => {
    const { failures, summary } = await scrape(SUREFIRE_TAX);

    expect(failures).toHaveLength(1);
    const [vat] = failures;
    expect(vat).toMatchObject({
      name: 'germanVatRoundsHalfUpToTheCent',
      full_name: 'com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent',
      key: 'com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent',
      status: 'failed',
      report_category: 'failure',
      message: 'VAT for DE ==> expected: <2.35> but was: <2.34>',
      reached_by: ['com.example.billing.TaxCalculatorTest'],
      url: `${pathToFileURL(SUREFIRE_TAX).href}#testcase=com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent`,
      retries: [],
      flaky: false,
    });
    expect(vat?.trace).toMatch(/^org\.opentest4j\.AssertionFailedError: VAT for DE/);
    expect(vat?.trace).toContain('at com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent(');
    expect(summary.environment).toContainEqual({ name: 'java.version', value: '17.0.15' });
    expect(summary.environment).toContainEqual({ name: 'os.name', value: 'Linux' });
    // Surefire dumps every system property; the class path and command line must not leak into facts.
    expect(summary.environment.map((e) => e.name)).not.toContain('java.class.path');
    expect(summary.environment.map((e) => e.name)).not.toContain('sun.java.command');
    expect(summary).toMatchObject({ mode: 'file', failures: 1 });
  });

  it('reads an <error> as broken with its Caused by chain', async () => {
    const { failures } = await scrape(SUREFIRE_BILLING);

    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      name: 'convertsSwissFrancInvoicesToEuro',
      status: 'broken',
      report_category: 'error',
      message: 'Cannot convert invoice for customer C-42 from CHF',
    });
    expect(failures[0]?.trace).toMatch(/^java\.lang\.IllegalStateException: Cannot convert invoice/);
    expect(failures[0]?.trace).toContain('Caused by: java.lang.ArithmeticException: Division by zero');
    expect(failures[0]?.trace).toContain('java.base/java.math.BigDecimal.divide');
  });

  describe('re-runs (surefire.rerunFailingTestsCount)', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'junit-rerun-'));
      writeFileSync(join(dir, 'TEST-rerun.xml'), SUREFIRE_RERUN);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('records every failed re-run as a retry and flaky passes as a warning', async () => {
      const { failures, summary } = await scrape(join(dir, 'TEST-rerun.xml'));

      expect(failures.map((f) => f.key)).toEqual([
        'com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent',
      ]);
      expect(failures[0]?.retries).toEqual([
        { status: 'failed', message: 'VAT for DE ==> expected: <2.35> but was: <2.34>' },
        { status: 'failed', message: 'VAT for DE ==> expected: <2.35> but was: <2.34>' },
      ]);
      expect(failures[0]?.flaky).toBe(false);
      expect(summary.warnings.join('\n')).toContain('com.example.billing.FlakyTest.passesOnSecondRun');
      // Passes (a flaky pass is one) are listed for the history; skipped and failed tests are not.
      expect(summary.passed).toEqual([
        'com.example.billing.FlakyTest.passesOnSecondRun',
        'com.example.billing.TaxCalculatorTest.netIsTheSumOfLines',
      ]);
    });
  });
});

describe('JUnit XML: pytest --junitxml', () => {
  let failures: Map<string, RawFailure>;
  let summary: ScrapeSummary;
  beforeAll(async () => {
    const scraped = await scrape(PYTEST);
    failures = byKey(scraped.failures);
    summary = scraped.summary;
  });

  it('finds the three failures and the two collection errors', () => {
    expect([...failures.keys()].sort()).toEqual([
      'tests.test_legacy_sync',
      'tests.test_stock.test_fetch_open_orders_from_order_db',
      'tests.test_stock.test_import_csv_in_boxes',
      'tests.test_stock.test_reorder_report_includes_skus_at_reorder_point',
      'tests.test_sync',
    ]);
    expect(failures.get('tests.test_stock.test_reorder_report_includes_skus_at_reorder_point')).toMatchObject(
      {
        status: 'failed',
        report_category: 'failure',
        message: "AssertionError: assert ['BAG-007'] == ['BAG-007', 'TEE-042']",
        reached_by: ['pytest', 'tests.test_stock'],
      },
    );
    expect(failures.get('tests.test_stock.test_import_csv_in_boxes')?.message).toBe(
      "ValueError: unknown unit of measure: 'dozen' (known: pcs, box, pallet)",
    );
    expect(failures.get('tests.test_stock.test_fetch_open_orders_from_order_db')?.message).toBe(
      'ConnectionRefusedError: [Errno 111] Connection refused',
    );
  });

  it('keys collection errors (classname="") on the module name and keeps the import error in the trace', () => {
    const sync = failures.get('tests.test_sync');
    const legacy = failures.get('tests.test_legacy_sync');

    expect(sync).toMatchObject({ name: 'tests.test_sync', status: 'broken', report_category: 'error' });
    expect(sync?.trace).toContain("ModuleNotFoundError: No module named 'redis_cluster'");
    expect(legacy?.trace).toContain("SyntaxError: Missing parentheses in call to 'print'");
    expect(sync?.warnings).toEqual([]);
  });

  it('does not report the passed re-run or passed tests', () => {
    expect([...failures.keys()].some((k) => k.includes('test_unit_cache_warms_up'))).toBe(false);
    expect(summary.failures).toBe(5);
  });

  it('states the host and start time from the testsuite attributes', () => {
    const xml = readFileSync(PYTEST, 'utf8');
    const host = xml.match(/hostname="([^"]+)"/)?.[1];
    const timestamp = xml.match(/timestamp="([^"]+)"/)?.[1];

    expect(summary.environment).toContainEqual({ name: 'hostname', value: host });
    expect(summary.environment).toContainEqual({ name: 'timestamp', value: timestamp });
  });
});

describe('JUnit XML: vitest junit reporter', () => {
  it('reads all five failures with their describe-prefixed names', async () => {
    const { failures } = await scrape(VITEST);
    const found = new Map(failures.map((f) => [f.name, f]));

    expect([...found.keys()].sort()).toEqual([
      "Cart > shipping cost to 'US' for 2100 g is 2290",
      'Checkout > places an order end to end',
      'Checkout > posts the order total to the ledger',
      'Checkout > quotes shipping for a guest customer',
      'Checkout > reserves stock in the warehouse',
    ]);
    for (const failure of failures) expect(failure.status).toBe('failed');
    expect(found.get('Checkout > posts the order total to the ledger')).toMatchObject({
      key: 'test/checkout.test.ts.Checkout > posts the order total to the ledger',
      message: 'ledger total for order ORD-1001 does not match cart total',
      reached_by: ['test/checkout.test.ts'],
    });
    expect(found.get('Checkout > reserves stock in the warehouse')?.message).toBe('Test timed out in 500ms.');
    expect(found.get('Checkout > quotes shipping for a guest customer')?.trace).toContain('zoneFor');
  });
});

describe('JUnit XML: go-junit-report', () => {
  it('replaces the "Failed" placeholder by the test output and attaches the suite output with the panic', async () => {
    const { failures } = await scrape(GO);
    const found = byKey(failures);

    expect([...found.keys()].sort()).toEqual([
      'example.com/ledger/ledger.TestSplitFeeKeepsEveryCent',
      'example.com/ledger/reconcile.TestBatchWithMissingStatementLine',
    ]);
    expect(found.get('example.com/ledger/ledger.TestSplitFeeKeepsEveryCent')?.message).toBe(
      'ledger_test.go:28: SplitFee(1000, 3) = [333 333 333], sums to 999, want 1000',
    );
    const panic = found.get('example.com/ledger/reconcile.TestBatchWithMissingStatementLine');
    // Empty body: the placeholder is all there is.
    expect(panic).toMatchObject({ message: 'Failed', trace: null });
    const output = panic?.attachments.find((a) => a.name.endsWith('system-out'));
    expect(output?.media_type).toBe('text/plain');
    expect(text(output?.body ?? null)).toContain(
      'panic: runtime error: invalid memory address or nil pointer dereference',
    );
  });
});

describe('JUnit XML: a folder of reports', () => {
  let served: ServedDir;
  beforeAll(async () => {
    served = await serveDir(JUNIT);
  });
  afterAll(() => served.close());

  const expectedKeys = async (): Promise<string[]> => {
    const keys: string[] = [];
    for (const file of [GO, PYTEST, SUREFIRE_BILLING, SUREFIRE_TAX, VITEST]) {
      keys.push(...(await scrape(file)).failures.map((f) => f.key));
    }
    return keys;
  };

  it('reads every XML file of a folder on disk, in name order', async () => {
    const { failures, summary } = await scrape(JUNIT);

    expect(failures.map((f) => f.key)).toEqual(await expectedKeys());
    expect(summary.environment).toContainEqual({ name: 'java.version', value: '17.0.15' });
    expect(summary.environment.filter((e) => e.name === 'timestamp')).toHaveLength(1);
    expect(failures.find((f) => f.name === 'TestSplitFeeKeepsEveryCent')?.url).toBe(
      `${pathToFileURL(GO).href}#testcase=${encodeURIComponent('example.com/ledger/ledger.TestSplitFeeKeepsEveryCent')}`,
    );
  });

  it('reads a folder over HTTP from its directory listing', async () => {
    const { failures } = await scrape(served.url);

    expect(failures.map((f) => f.key)).toEqual(await expectedKeys());
    expect(failures[0]?.url.startsWith(`${served.url}go-junit.xml#testcase=`)).toBe(true);
  });

  it('reads a single file over HTTP like the same file on disk', async () => {
    const overHttp = await scrape(`${served.url}pytest-junit.xml`);
    const onDisk = await scrape(PYTEST);

    const withoutUrl = (f: RawFailure) => ({ ...f, url: f.url.replace(/^.*#/, '#') });
    expect(overHttp.failures.map(withoutUrl)).toEqual(onDisk.failures.map(withoutUrl));
    expect(overHttp.failures[0]?.url.startsWith(`${served.url}pytest-junit.xml#testcase=`)).toBe(true);
  });

  it('detects JUnit files and folders, and not Allure reports', async () => {
    expect(await junitAdapter.detect(await openReportSource(PYTEST))).toBe(true);
    expect(await junitAdapter.detect(await openReportSource(SUREFIRE_TAX))).toBe(true);
    expect(await junitAdapter.detect(await openReportSource(JUNIT))).toBe(true);
    expect(await junitAdapter.detect(await openReportSource(`${served.url}go-junit.xml`))).toBe(true);
    expect(await junitAdapter.detect(await openReportSource('test/fixtures/reports/allure3'))).toBe(false);
    expect(
      await junitAdapter.detect(await openReportSource('test/fixtures/build/projects/billing-maven/pom.xml')),
    ).toBe(false);
  });
});

describe('JUnit XML: bad inputs', () => {
  let dir: string;
  let served: ServedDir;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'junit-bad-'));
    const surefire = readFileSync(SUREFIRE_TAX, 'utf8');
    // A report cut off mid-write, as when the CI job is killed.
    writeFileSync(join(dir, 'truncated.xml'), surefire.slice(0, surefire.indexOf('</testcase>') + 5));
    copyFileSync('test/fixtures/build/projects/billing-maven/pom.xml', join(dir, 'pom.xml'));
    writeFileSync(join(dir, 'empty.xml'), '');
    writeFileSync(
      join(dir, 'no-tests.xml'),
      '<?xml version="1.0"?>\n<testsuites name="nothing ran"></testsuites>\n',
    );
    writeFileSync(
      join(dir, 'error-page.xml'),
      '<!DOCTYPE html>\n<html><body><p>502 Bad Gateway<br></body></html>\n',
    );
    served = await serveDir(dir);
  });
  afterAll(async () => {
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('detects a broken JUnit file as JUnit, so that scraping it can say where it breaks', async () => {
    expect(await junitAdapter.detect(await openReportSource(join(dir, 'truncated.xml')))).toBe(true);
    expect(await junitAdapter.detect(await openReportSource(join(dir, 'error-page.xml')))).toBe(false);
  });

  it('malformed XML is MALFORMED_REPORT naming the file and the line', async () => {
    const err = await scrapeError(join(dir, 'truncated.xml'));

    expect(err.code).toBe('MALFORMED_REPORT');
    expect(err.input).toBe(pathToFileURL(join(dir, 'truncated.xml')).href);
    expect(err.message).toContain('truncated.xml');
    expect(err.message).toMatch(/line \d+/);
  });

  it('XML that is not JUnit is NOT_A_REPORT naming its root element', async () => {
    const err = await scrapeError(join(dir, 'pom.xml'));

    expect(err.code).toBe('NOT_A_REPORT');
    expect(err.message).toContain('pom.xml');
    expect(err.message).toContain('<project>');
  });

  it('an HTML error page is NOT_A_REPORT', async () => {
    const err = await scrapeError(`${served.url}error-page.xml`);

    expect(err.code).toBe('NOT_A_REPORT');
    expect(err.message).toContain(`${served.url}error-page.xml`);
  });

  it('an empty file and a report without test cases are EMPTY_REPORT', async () => {
    const empty = await scrapeError(join(dir, 'empty.xml'));
    const noTests = await scrapeError(join(dir, 'no-tests.xml'));

    expect(empty.code).toBe('EMPTY_REPORT');
    expect(empty.message).toContain('empty.xml');
    expect(noTests.code).toBe('EMPTY_REPORT');
    expect(noTests.message).toContain('no-tests.xml');
  });

  it('a missing file is INPUT_NOT_FOUND naming it', async () => {
    const err = await scrapeError(join(dir, 'missing.xml'));

    expect(err.code).toBe('INPUT_NOT_FOUND');
    expect(err.input).toBe(join(dir, 'missing.xml'));
  });

  it('a URL answering 404 is INPUT_NOT_FOUND naming the URL', async () => {
    const err = await scrapeError(`${served.url}missing.xml`);

    expect(err.code).toBe('INPUT_NOT_FOUND');
    expect(err.input).toBe(`${served.url}missing.xml`);
    expect(err.message).toContain(`${served.url}missing.xml`);
  });

  it('in a folder, broken and foreign files become warnings and the good ones are still read', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'junit-mixed-'));
    try {
      copyFileSync(join(dir, 'truncated.xml'), join(folder, 'TEST-a-truncated.xml'));
      copyFileSync(join(dir, 'pom.xml'), join(folder, 'failsafe-summary.xml'));
      copyFileSync(SUREFIRE_BILLING, join(folder, 'TEST-b.xml'));

      const { failures, summary } = await scrape(folder);

      expect(failures.map((f) => f.name)).toEqual(['convertsSwissFrancInvoicesToEuro']);
      expect(
        summary.warnings.some((w) => w.includes('TEST-a-truncated.xml') && w.includes('not well-formed')),
      ).toBe(true);
      expect(summary.warnings.some((w) => w.includes('failsafe-summary.xml'))).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/**
 * No committed fixture re-runs tests, so this is what Surefire 3.6.1 wrote for the billing-maven
 * fixture project run with `-Dsurefire.rerunFailingTestsCount=2` plus one test that passes on its
 * second attempt (properties omitted, two files joined under one <testsuites> root).
 */
const SUREFIRE_RERUN = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report.xsd" version="3.0.2" name="com.example.billing.FlakyTest" time="0.029" tests="1" errors="0" skipped="0" failures="0" flakes="1">
  <testcase name="passesOnSecondRun" classname="com.example.billing.FlakyTest" time="0.002">
    <flakyFailure message="cache was cold ==&gt; expected: &lt;2&gt; but was: &lt;1&gt;" type="org.opentest4j.AssertionFailedError">
      <stackTrace><![CDATA[org.opentest4j.AssertionFailedError: cache was cold ==> expected: <2> but was: <1>
	at org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:601)
	at com.example.billing.FlakyTest.passesOnSecondRun(FlakyTest.java:13)
]]></stackTrace>
      <system-out><![CDATA[attempt 1
]]></system-out>
    </flakyFailure>
  </testcase>
</testsuite>
<testsuite xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report.xsd" version="3.0.2" name="com.example.billing.TaxCalculatorTest" time="0.022" tests="4" errors="0" skipped="1" failures="1" flakes="0">
  <testcase name="reverseChargeForBusinessCustomers" classname="com.example.billing.TaxCalculatorTest" time="0.0">
    <skipped message="BILL-214: reverse charge for B2B customers is not implemented yet"/>
  </testcase>
  <testcase name="germanVatRoundsHalfUpToTheCent" classname="com.example.billing.TaxCalculatorTest" time="0.002">
    <failure message="VAT for DE ==&gt; expected: &lt;2.35&gt; but was: &lt;2.34&gt;" type="org.opentest4j.AssertionFailedError"><![CDATA[org.opentest4j.AssertionFailedError: VAT for DE ==> expected: <2.35> but was: <2.34>
	at org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1210)
	at com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent(TaxCalculatorTest.java:22)
]]></failure>
    <rerunFailure message="VAT for DE ==&gt; expected: &lt;2.35&gt; but was: &lt;2.34&gt;" type="org.opentest4j.AssertionFailedError">
      <stackTrace><![CDATA[org.opentest4j.AssertionFailedError: VAT for DE ==> expected: <2.35> but was: <2.34>
	at org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1210)
	at com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent(TaxCalculatorTest.java:22)
]]></stackTrace>
    </rerunFailure>
    <rerunFailure message="VAT for DE ==&gt; expected: &lt;2.35&gt; but was: &lt;2.34&gt;" type="org.opentest4j.AssertionFailedError">
      <stackTrace><![CDATA[org.opentest4j.AssertionFailedError: VAT for DE ==> expected: <2.35> but was: <2.34>
	at org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:1210)
	at com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent(TaxCalculatorTest.java:22)
]]></stackTrace>
    </rerunFailure>
  </testcase>
  <testcase name="netIsTheSumOfLines" classname="com.example.billing.TaxCalculatorTest" time="0.001"/>
</testsuite>
</testsuites>
`;
