import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeReport } from '../../scraper/index.ts';
import { openContext } from '../../src/context/index.ts';
import { createLocator, locateDocument, openLocatorDeps } from '../../src/locate/index.ts';
import type { FactsDocument, Issue, Platform, ScrapeMode } from '../../src/schemas/index.ts';
import {
  environmentFindings,
  failureSignature,
  flakyFindings,
  loadSignalsConfig,
  masksFor,
  triageIssue,
} from '../../src/signals/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { IN_MEMORY, recordFacts, SignatureStore } from '../../src/store/signatures/index.ts';
import { TempRepo } from '../helpers/git-repo.ts';
import { silentProgress } from '../helpers/scrape-context.ts';
import { contextWith } from './helpers.ts';

const PLATFORMS_DIR = fileURLToPath(new URL('../../config/platforms', import.meta.url));
const ALLURE2 = 'test/fixtures/reports/allure2';
const SHOP = 'test/fixtures/build/projects/shop-vitest';

/**
 * The signals on facts the real scraper made from the committed fixture reports (real vitest,
 * pytest runs): what they find there, and what they must not.
 */
describe('signals on the real fixture reports', () => {
  const evidenceDir = mkdtempSync(join(tmpdir(), 'signals-evidence-'));
  const copies = mkdtempSync(join(tmpdir(), 'signals-reports-'));
  let evidence: EvidenceStore;
  let allure: FactsDocument;

  const scrape = (input: string, platform: Platform, mode: ScrapeMode): Promise<FactsDocument> =>
    scrapeReport(
      { input, platform, mode, run: { repository: 'shop', revision_sha: 'f'.repeat(40), patchset: 2 } },
      {
        store: evidence,
        log: pino({ level: 'silent' }),
        progress: silentProgress,
        platformsDir: PLATFORMS_DIR,
      },
    );
  const byName = (facts: FactsDocument, name: string): Issue => {
    const issue = facts.issues.find((i) => i.test.name === name);
    if (issue === undefined) throw new Error(`no issue for ${name}`);
    return issue;
  };

  beforeAll(async () => {
    evidence = new EvidenceStore({ root: evidenceDir });
    allure = await scrape(ALLURE2, 'allure2', 'data');
  });
  afterAll(() => {
    evidence.close();
    rmSync(evidenceDir, { recursive: true, force: true });
    rmSync(copies, { recursive: true, force: true });
  });

  it('finds the refused database connection, quoting the trace line verbatim', async () => {
    const issue = byName(allure, 'test_fetch_open_orders_from_order_db');

    const found = await environmentFindings(issue, evidence);

    expect(found.map((f) => [f.problem, f.where])).toContainEqual(['connection_refused', 'reason']);
    const refused = found.find((f) => f.problem === 'connection_refused');
    const quote = refused?.signal.cites.find((c) => c.kind === 'evidence');
    expect(quote?.kind).toBe('evidence');
    if (quote?.kind !== 'evidence' || quote.lines === undefined) return;
    const line = (await evidence.readAll(quote.id)).split(/\r?\n/)[quote.lines.start - 1];
    expect(line).toBe(quote.quote);
    expect(quote.quote).toBe('E               ConnectionRefusedError: [Errno 111] Connection refused');
  });

  it("reads the order service's GBK log (decoded by the scraper) as context: connect failed, timeout", async () => {
    const issue = byName(allure, 'test_fetch_open_orders_from_order_db');

    const found = await environmentFindings(issue, evidence);
    const timeout = found.find((f) => f.problem === 'network_timeout');

    expect(timeout?.where).toBe('context');
    const quote = timeout?.signal.cites.find((c) => c.kind === 'evidence');
    expect(quote?.kind === 'evidence' && quote.quote).toBe(
      '2024-05-14 09:12:04 [订单服务] 连接数据库失败: 超时 (订单服务)',
    );
  });

  it('finds no environment problem in the other real failures (a test time limit is not one)', async () => {
    const others = allure.issues.filter((i) => i.test.name !== 'test_fetch_open_orders_from_order_db');

    expect(others.map((i) => i.test.name)).toContain('reserves stock in the warehouse');
    for (const issue of others)
      expect([issue.test.name, await environmentFindings(issue, evidence)]).toEqual([issue.test.name, []]);
  });

  it('sees no retry in the real failures: the retried tests passed in the end and are not issues', () => {
    expect(allure.issues.map((i) => i.test.name)).not.toContain('test_unit_cache_warms_up');
    for (const issue of allure.issues) {
      expect(
        flakyFindings(issue, { signatures: null, project: 'shop', runId: 'r', revision: 'f'.repeat(40) }),
      ).toEqual([]);
    }
  });

  it('is flaky when the real report shows a passed attempt of a failed test', async () => {
    // The real report, with the attempt history Allure keeps for a test run twice: the earlier
    // attempt of the ValueError test passed (as pytest-rerunfailures writes one for the cache test).
    const copy = join(copies, 'allure2-retry');
    cpSync(ALLURE2, copy, { recursive: true });
    const cases = join(copy, 'data/test-cases');
    const file = readdirSync(cases).find((f) =>
      readFileSync(join(cases, f), 'utf8').includes('"name":"test_import_csv_in_boxes"'),
    );
    if (file === undefined) throw new Error('test case not found');
    const testCase = JSON.parse(readFileSync(join(cases, file), 'utf8'));
    testCase.extra.retries = [
      { uid: '0000000000000001', status: 'passed', time: { start: 1, stop: 2, duration: 1 } },
    ];
    writeFileSync(join(cases, file), JSON.stringify(testCase));

    const facts = await scrape(copy, 'allure2', 'data');
    const issue = byName(facts, 'test_import_csv_in_boxes');
    const triage = await triageIssue(issue, contextWith({ issues: facts.issues, evidence }), {
      signatures: null,
      masks: [],
      project: 'shop',
      branch: 'master',
      change: 1001,
      runId: 'retry-run',
    });

    const retry = issue.facts.findIndex((f) => f.type === 'retry');
    expect(issue.facts[retry]).toEqual({ type: 'retry', name: '#1', value: 'passed' });
    expect([triage.verdict, triage.category]).toEqual(['flaky', 'flaky']);
    expect(triage.signals[0]?.cites).toEqual([{ kind: 'fact', issue_id: issue.id, index: retry }]);
  });

  it('gives the same signatures to the folder report and the single-file report of the same run', async () => {
    const single = await scrape('test/fixtures/reports/allure2-single', 'allure2', 'data');
    const signatures = (facts: FactsDocument) =>
      Object.fromEntries(facts.issues.map((i) => [i.test.key, failureSignature(i)]));

    expect(Object.keys(signatures(allure))).toHaveLength(8);
    expect(signatures(single)).toEqual(signatures(allure));
    expect(new Set(Object.values(signatures(allure))).size).toBe(8);
  });

  it("puts pytest's collection errors on the build channel (JUnit XML)", async () => {
    const junit = await scrape('test/fixtures/reports/junit/pytest-junit.xml', 'junit', 'file');
    const ctx = contextWith({ issues: junit.issues, evidence });
    const deps = {
      signatures: null,
      masks: [],
      project: 'inventory',
      branch: 'master',
      change: 7,
      runId: 'j',
    };
    const triageOf = async (key: string) => {
      const issue = junit.issues.find((i) => i.test.key === key);
      if (issue === undefined) throw new Error(`no issue ${key}`);
      return triageIssue(issue, ctx, deps);
    };

    const missingModule = await triageOf('tests.test_sync');
    const syntax = await triageOf('tests.test_legacy_sync');
    const refused = await triageOf('tests.test_stock.test_fetch_open_orders_from_order_db');

    // A module the CI image lacks is not a download failure: nothing decides it without a diff.
    expect([missingModule.verdict, missingModule.channel]).toEqual(['need_evidence', 'build']);
    expect(missingModule.signals.map((s) => s.kind)).toEqual(['build_channel']);
    expect([syntax.verdict, syntax.channel]).toEqual(['need_evidence', 'build']);
    expect([refused.verdict, refused.category, refused.channel]).toEqual([
      'environment',
      'environment',
      'test',
    ]);
  });

  describe('located in a real repository with a real change', () => {
    const repo = new TempRepo();
    let located: FactsDocument;
    let base: string;
    let revision: string;
    let close: () => Promise<void>;
    let ctx: Awaited<ReturnType<typeof openContext>>;
    let history: SignatureStore;
    const deps = () => ({
      signatures: history,
      masks: [],
      project: 'shop',
      branch: 'master',
      change: 1001,
      runId: 'ci-1001-2',
    });

    beforeAll(async () => {
      // The base: the shop as it was before the change, whose Ledger.verify compared in cents.
      cpSync(join(SHOP, 'src'), join(repo.dir, 'src'), { recursive: true });
      cpSync(join(SHOP, 'test'), join(repo.dir, 'test'), { recursive: true });
      const ledger = readFileSync(join(SHOP, 'src/ledger.ts'), 'utf8');
      base = repo.commit(
        {
          'src/ledger.ts': ledger.replace(
            'assert.equal(booked, expected,',
            'assert.equal(Math.round(booked), Math.round(expected),',
          ),
        },
        'base',
      );
      // The change: the sources the report's run was made from.
      revision = repo.commit({ 'src/ledger.ts': ledger }, 'ledger: compare exact amounts');
      const locatorDeps = await openLocatorDeps(repo.dir);
      close = locatorDeps.close;
      const target = { revision, reportRevision: revision, diffBase: base, repository: repo.dir };
      located = await locateDocument(allure, target, createLocator(locatorDeps));
      ctx = await openContext({ ...locatorDeps, evidence }, located, { revision });
      history = new SignatureStore(IN_MEMORY);
    });
    afterAll(async () => {
      history.close();
      await close();
      repo.remove();
    });

    it('blames the change for the ledger failure in the line it modified', async () => {
      const triage = await triageIssue(byName(located, 'posts the order total to the ledger'), ctx, deps());

      expect([triage.verdict, triage.category, triage.channel]).toEqual([
        'caused_by_change',
        'code_regression',
        'test',
      ]);
      expect(triage.signals[0]?.detail).toMatch(
        /^the failure frame: src\/ledger\.ts:21 \(.*verify\) is on a line this change modified$/,
      );
      expect(triage.signals[0]?.cites).toContainEqual({
        kind: 'diff',
        file: 'src/ledger.ts',
        lines: { start: 21, end: 21 },
      });
      // Ledger.post is on the stack too, and calls the function the change modified.
      expect(triage.signals.map((s) => s.detail)).toEqual([
        triage.signals[0]?.detail,
        expect.stringMatching(
          /^a frame: src\/ledger\.ts:14 \(.*post\) calls or is called by .*verify, which this change modified$/,
        ),
      ]);
    });

    it('names the one-hop candidate of the guest failure, and leaves the verdict open', async () => {
      const triage = await triageIssue(byName(located, 'quotes shipping for a guest customer'), ctx, deps());

      expect([triage.verdict, triage.category]).toEqual(['need_evidence', 'need_evidence']);
      // checkout posts to the ledger before the failing line, and post calls the changed verify:
      // a weak link, listed for the engine, deciding nothing — and "ran none of the changed code"
      // can no longer be said.
      expect(triage.signals.map((s) => s.kind)).toEqual(['diff_impact']);
      expect(triage.signals[0]?.detail).toMatch(/calls Ledger\.post, which calls Ledger\.verify .*modified/);
      expect(triage.signals[0]?.cites).toContainEqual(
        expect.objectContaining({ kind: 'code', file: 'src/ledger.ts' }),
      );
    });

    it('calls the refused database connection environment', async () => {
      const triage = await triageIssue(byName(located, 'test_fetch_open_orders_from_order_db'), ctx, deps());

      expect([triage.verdict, triage.category]).toEqual(['environment', 'environment']);
      // The GBK log's "connect failed: timeout" stays listed as context.
      expect(triage.signals.map((s) => s.kind)).toEqual(['environment', 'environment']);
    });

    it('is pre_existing once the nightly run of the target branch is fed the same report', async () => {
      const config = await loadSignalsConfig();
      recordFacts(history, allure, {
        run_id: 'nightly-41',
        branch: 'master',
        change: null,
        revision: base,
        masks: masksFor(config, 'shop'),
      });

      const guest = await triageIssue(byName(located, 'quotes shipping for a guest customer'), ctx, {
        ...deps(),
        masks: masksFor(config, 'shop'),
      });
      const ledger = await triageIssue(byName(located, 'posts the order total to the ledger'), ctx, {
        ...deps(),
        masks: masksFor(config, 'shop'),
      });

      expect([guest.verdict, guest.category]).toEqual(['pre_existing', 'pre_existing']);
      expect(guest.signals.map((s) => s.kind)).toEqual(['pre_existing', 'diff_impact']);
      // History beats the diff link; the link stays listed.
      expect([ledger.verdict, ledger.signals.map((s) => s.kind)]).toEqual([
        'pre_existing',
        ['pre_existing', 'diff_impact', 'diff_impact'],
      ]);
    });
  });
});
