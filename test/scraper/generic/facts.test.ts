import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactsBuilder } from '../../../scraper/facts/index.ts';
import { createGenericAdapter, loadPlatformConfig } from '../../../scraper/platforms/generic/index.ts';
import type { RawFailure } from '../../../scraper/raw.ts';
import { openReportSource } from '../../../scraper/source/report-source.ts';
import { Issue } from '../../../src/schemas/index.ts';
import { EvidenceStore } from '../../../src/store/evidence/index.ts';
import { type FixturePlatform, startFixturePlatform } from '../../fixtures/platform/server.ts';
import { collectingContext } from '../../helpers/scrape-context.ts';
import { truthFailures } from './truth.ts';

const CONFIG = 'config/platforms/fixture-platform.json';
/** One retry, as in production: a page slowed by a loaded machine is read again. */
const LIMITS = { pageTimeoutMs: 3_000, concurrency: 3, pageRetries: 1 };

/** The generic adapter's failures through the facts builder, as the scraper wires them. */
describe('generic platform failures as facts', () => {
  let platform: FixturePlatform;
  let evidenceDir: string;
  let store: EvidenceStore;
  let issues: Issue[];

  beforeAll(async () => {
    platform = await startFixturePlatform();
    evidenceDir = mkdtempSync(join(tmpdir(), 'generic-evidence-'));
    store = new EvidenceStore({ root: evidenceDir });
    const builder = new FactsBuilder(store);
    const collecting = collectingContext(await openReportSource(platform.url), 'dom', LIMITS);
    const ctx = {
      ...collecting.ctx,
      emit: async (order: number, raw: RawFailure) => builder.add(order, raw),
    };
    try {
      await createGenericAdapter(await loadPlatformConfig(CONFIG)).scrape(ctx);
    } finally {
      await collecting.close();
    }
    issues = builder.issues();
  });
  afterAll(async () => {
    store?.close();
    await platform?.close();
    if (evidenceDir) rmSync(evidenceDir, { recursive: true, force: true });
  });

  it('gives one schema-valid issue per failure of the XML, in report order', () => {
    expect(issues.map((i) => i.test.name)).toEqual(truthFailures().map((c) => c.name));
    for (const issue of issues) expect(Issue.safeParse(issue).success).toBe(true);
  });

  it('decodes the GBK service log to UTF-8 evidence, with and without a declared charset', async () => {
    const gbk = platform.gbk;
    if (gbk === null) throw new Error('the fixture platform found no GBK log');
    const issue = issues.find((i) => i.test.name === gbk.testName);
    const logs = issue?.facts.filter((f) => f.name?.startsWith(gbk.name)) ?? [];

    expect(logs.map((f) => [f.type, f.name])).toEqual([
      ['log', gbk.name],
      ['log', `${gbk.name} (raw)`],
    ]);
    for (const log of logs) {
      if (log.evidence === undefined) throw new Error(`${log.name} has no evidence`);
      expect(await store.readAll(log.evidence)).toBe(iconv.decode(gbk.bytes, 'gbk'));
      expect(store.get(log.evidence).original_encoding).toMatch(/^(gbk|gb18030)$/);
    }
  });

  it('keeps the unfolded level-3 page as evidence of each readable failure', async () => {
    const readable = issues.filter((i) => i.source_evidence !== undefined);
    expect(readable).toHaveLength(truthFailures().length - 2);
    for (const issue of readable) {
      expect(await store.readAll(issue.source_evidence ?? '')).toContain('<pre id="console-log">');
    }
  });
});
