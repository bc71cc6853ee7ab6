import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectLanguage, parseStackTrace, type StackHints } from '../../../scraper/stack/index.ts';
import { expectRole, expectSchemaValid, type RoleExpectation } from './helpers.ts';

/** Traces captured from the fixture projects' real CI-style runs (test/fixtures/build). */
const TRACES = new URL('../../fixtures/traces/', import.meta.url);
const PROJECTS = '/work/main/test/fixtures/build/projects';

function trace(name: string): string {
  return readFileSync(new URL(name, TRACES), 'utf8');
}

interface Case {
  file: string;
  language: string;
  /** As the fixture reports name the test (JUnit testcase name and classname). */
  hints: StackHints;
  failure: RoleExpectation | null;
  test: RoleExpectation | null;
}

const cases: Case[] = [
  {
    file: 'java-assertion.txt',
    language: 'java',
    hints: {
      testName: 'germanVatRoundsHalfUpToTheCent',
      testFullName: 'com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent',
    },
    failure: null,
    test: {
      file: 'com/example/billing/TaxCalculatorTest.java',
      line: 22,
      function: 'TaxCalculatorTest.germanVatRoundsHalfUpToTheCent',
      frame_index: 1,
    },
  },
  {
    file: 'java-exception.txt',
    language: 'java',
    hints: {
      testName: 'convertsSwissFrancInvoicesToEuro',
      testFullName: 'com.example.billing.BillingServiceTest.convertsSwissFrancInvoicesToEuro',
    },
    failure: {
      file: 'com/example/billing/ExchangeRates.java',
      line: 21,
      function: 'ExchangeRates.toEuro',
      frame_index: 4,
    },
    test: {
      file: 'com/example/billing/BillingServiceTest.java',
      line: 22,
      function: 'BillingServiceTest.convertsSwissFrancInvoicesToEuro',
      frame_index: 2,
    },
  },
  {
    file: 'python-assertion.txt',
    language: 'python',
    hints: {
      testName: 'test_reorder_report_includes_skus_at_reorder_point',
      testFullName: 'tests.test_stock.test_reorder_report_includes_skus_at_reorder_point',
    },
    failure: null,
    test: {
      file: 'tests/test_stock.py',
      line: 20,
      function: 'test_reorder_report_includes_skus_at_reorder_point',
      snippet: 'assert warehouse.needs_reorder() == ["BAG-007", "TEE-042"]',
      frame_index: 0,
    },
  },
  {
    file: 'python-valueerror.txt',
    language: 'python',
    hints: {
      testName: 'test_import_csv_in_boxes',
      testFullName: 'tests.test_stock.test_import_csv_in_boxes',
    },
    failure: {
      file: 'inventory/units.py',
      line: 10,
      function: 'unit_size',
      snippet:
        'raise ValueError(f"unknown unit of measure: {unit!r} (known: {\', \'.join(UNIT_SIZES)})") from None',
      frame_index: 4,
    },
    test: {
      file: 'tests/test_stock.py',
      line: 25,
      function: 'test_import_csv_in_boxes',
      snippet: 'import_csv(warehouse, text)',
      frame_index: 0,
    },
  },
  {
    file: 'python-valueerror-native.txt',
    language: 'python',
    hints: {
      testName: 'test_import_csv_in_boxes',
      testFullName: 'tests.test_stock.test_import_csv_in_boxes',
    },
    failure: {
      file: `${PROJECTS}/inventory-pytest/inventory/units.py`,
      line: 10,
      function: 'unit_size',
      frame_index: 23,
    },
    test: {
      file: `${PROJECTS}/inventory-pytest/tests/test_stock.py`,
      line: 25,
      function: 'test_import_csv_in_boxes',
      frame_index: 19,
    },
  },
  {
    file: 'python-modulenotfound.txt',
    language: 'python',
    hints: { testName: 'tests.test_sync' },
    failure: null,
    test: {
      file: 'tests/test_sync.py',
      line: 1,
      function: '<module>',
      snippet: 'import redis_cluster  # not in requirements.txt: the CI image lacks it',
      frame_index: 1,
    },
  },
  {
    file: 'python-syntaxerror.txt',
    language: 'python',
    hints: { testName: 'tests.test_legacy_sync' },
    failure: {
      file: `${PROJECTS}/inventory-pytest/inventory/legacy_sync.py`,
      line: 8,
      function: null,
      snippet: 'print "synced %d rows" % len(rows)',
      frame_index: 9,
    },
    test: { file: 'tests/test_legacy_sync.py', line: 1, function: '<module>', frame_index: 8 },
  },
  {
    file: 'node-vitest.txt',
    language: 'javascript',
    hints: { testName: 'Checkout > quotes shipping for a guest customer', testFile: 'test/checkout.test.ts' },
    failure: {
      file: `${PROJECTS}/shop-vitest/src/shipping.ts`,
      line: 14,
      column: 18,
      function: 'zoneFor',
      frame_index: 0,
    },
    test: {
      file: `${PROJECTS}/shop-vitest/test/checkout.test.ts`,
      line: 25,
      column: 19,
      function: null,
      frame_index: 4,
    },
  },
  {
    file: 'node-vitest-assert.txt',
    language: 'javascript',
    hints: { testName: 'Checkout > posts the order total to the ledger', testFile: 'test/checkout.test.ts' },
    failure: {
      file: `${PROJECTS}/shop-vitest/src/ledger.ts`,
      line: 21,
      column: 12,
      function: 'Ledger.verify',
      frame_index: 0,
    },
    test: {
      file: `${PROJECTS}/shop-vitest/test/checkout.test.ts`,
      line: 19,
      column: 19,
      function: null,
      frame_index: 3,
    },
  },
  {
    file: 'browser-chromium.txt',
    language: 'javascript',
    hints: {},
    failure: {
      file: 'js/cart-view.js',
      line: 9,
      column: 30,
      function: 'PriceFormatter.format',
      frame_index: 0,
    },
    test: null,
  },
  {
    file: 'go-panic.txt',
    language: 'go',
    hints: {
      testName: 'TestBatchWithMissingStatementLine',
      testFullName: 'example.com/ledger/reconcile.TestBatchWithMissingStatementLine',
    },
    failure: {
      file: `${PROJECTS}/ledger-go/reconcile/reconcile.go`,
      line: 22,
      function: 'reconcile.(*Index).amountFor',
      frame_index: 3,
    },
    test: {
      file: `${PROJECTS}/ledger-go/reconcile/reconcile_test.go`,
      line: 18,
      function: 'reconcile.TestBatchWithMissingStatementLine',
      frame_index: 6,
    },
  },
  {
    file: 'go-testing.txt',
    language: 'go',
    hints: {
      testName: 'TestSplitFeeKeepsEveryCent',
      testFullName: 'example.com/ledger/ledger.TestSplitFeeKeepsEveryCent',
    },
    failure: null,
    test: { file: 'ledger_test.go', line: 28, function: 'TestSplitFeeKeepsEveryCent', frame_index: 0 },
  },
];

describe('fixture traces from real runs', () => {
  it.each(cases)('$file', ({ file, language, hints, failure, test }) => {
    const text = trace(file);
    expect(detectLanguage(text)).toBe(language);
    const locations = parseStackTrace(text, hints);
    expectSchemaValid(locations);
    expectRole(locations, 'failure', failure);
    expectRole(locations, 'test', test);
  });

  it('finds the same roles without any hints', () => {
    for (const { file, failure, test } of cases) {
      const locations = parseStackTrace(trace(file));
      expect(locations.find((l) => l.role === 'failure')?.frame_index, file).toBe(failure?.frame_index);
      expect(locations.find((l) => l.role === 'test')?.frame_index, file).toBe(test?.frame_index);
    }
  });

  it('marks the vendored browser helper as library', () => {
    const locations = parseStackTrace(trace('browser-chromium.txt'));
    expect(locations[2]).toMatchObject({ file: 'vendor/mini-collections.js', library: true, role: 'frame' });
    expect(locations[0]?.raw_file).toBe('http://127.0.0.1:38051/js/cart-view.js');
  });

  it('marks frozen importlib frames from pytest as library without a snippet', () => {
    const frozen = parseStackTrace(trace('python-syntaxerror.txt'))[3];
    expect(frozen).toMatchObject({
      file: '<frozen importlib._bootstrap>',
      line: 1204,
      function: '_gcd_import',
      snippet: null,
      library: true,
    });
  });
});
