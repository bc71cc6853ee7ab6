import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGenericAdapter,
  type GenericPlatformConfig,
  loadPlatformConfig,
} from '../../../scraper/platforms/generic/index.ts';
import type { Progress, ScrapeSummary } from '../../../scraper/platforms/types.ts';
import type { RawFailure } from '../../../scraper/raw.ts';
import { openReportSource, type ReportSource } from '../../../scraper/source/report-source.ts';
import { decodeBytes } from '../../../scraper/text/index.ts';
import { type FixturePlatform, startFixturePlatform } from '../../fixtures/platform/server.ts';
import { collectingContext } from '../../helpers/scrape-context.ts';
import { type TruthCase, truthFailures, truthHostname, truthProperty } from './truth.ts';

const CONFIG = 'config/platforms/fixture-platform.json';
/** Rows per list page of the fixture platform. */
const PAGE_SIZE = 3;
const LIMITS = { pageTimeoutMs: 3_000, concurrency: 3, pageRetries: 1 };

function fullName(c: TruthCase): string {
  return c.classname === '' ? c.name : `${c.classname}::${c.name}`;
}

describe('generic platform adapter on the fixture platform', () => {
  let platform: FixturePlatform;
  let config: GenericPlatformConfig;
  let source: ReportSource;
  let truth: TruthCase[];
  let failures: RawFailure[];
  let summary: ScrapeSummary;
  const progress = { total: -1, ticks: 0 };

  beforeAll(async () => {
    platform = await startFixturePlatform();
    config = await loadPlatformConfig(CONFIG);
    source = await openReportSource(platform.url);
    truth = truthFailures();
    const counting: Progress = {
      start: (total) => {
        progress.total = total;
      },
      tick: () => {
        progress.ticks++;
      },
      done: () => {},
    };
    const collecting = collectingContext(source, 'dom', LIMITS);
    try {
      summary = await createGenericAdapter(config).scrape({ ...collecting.ctx, progress: counting });
      failures = collecting.failures();
    } finally {
      await collecting.close();
    }
  });
  afterAll(async () => {
    await platform?.close();
  });

  const byName = (c: TruthCase): RawFailure => {
    const found = failures.find((f) => f.name === c.name && f.reached_by[0] === c.suite);
    if (found === undefined) throw new Error(`no failure "${c.name}" in "${c.suite}"`);
    return found;
  };
  const withId = (id: string | null): { truth: TruthCase; failure: RawFailure } => {
    const c = platform.suites.flatMap((s) => s.cases).find((x) => x.id === id);
    const t = truth.find((x) => x.name === c?.name && x.classname === c?.classname);
    if (t === undefined) throw new Error(`quirk ${id} is not a failure of the XML`);
    return { truth: t, failure: byName(t) };
  };

  it('detects the platform by URL and marker, and nothing else', async () => {
    const adapter = createGenericAdapter(config);
    const elsewhere: ReportSource = {
      ...source,
      rootUrl: 'http://ci.example/reports/7/',
      displayUrl: 'http://ci.example/reports/7/index.html',
    };
    const noMarker: ReportSource = {
      ...source,
      tryGet: async () => ({ body: Buffer.from('<html></html>'), contentType: 'text/html' }),
    };

    expect(await adapter.detect(source)).toBe(true);
    expect(await adapter.detect(elsewhere)).toBe(false);
    expect(await adapter.detect(noMarker)).toBe(false);
  });

  it('finds every failure of the source XML, across list pages, in report order', () => {
    expect(truth.length).toBeGreaterThan(0);
    expect(failures.map((f) => [f.reached_by[0], f.name])).toEqual(truth.map((c) => [c.suite, c.name]));
    expect(summary.failures).toBe(truth.length);
    expect(progress).toEqual({ total: truth.length, ticks: truth.length });
  });

  it('follows pagination: failures past the first page carry their page and row', () => {
    const later = truth.filter((c) => c.index >= PAGE_SIZE);
    expect(later.length).toBeGreaterThan(0);
    for (const c of truth) {
      const label = `page ${Math.floor(c.index / PAGE_SIZE) + 1} row ${(c.index % PAGE_SIZE) + 1}`;
      expect(byName(c).reached_by).toEqual([c.suite, label]);
    }
  });

  it('reads name, full name, status, message, trace and duration off each detail page', () => {
    const broken = [platform.quirks.serverError, platform.quirks.hang].map((id) => withId(id).truth);
    for (const c of truth.filter((x) => !broken.includes(x))) {
      const f = byName(c);
      expect(f.full_name).toBe(fullName(c));
      expect(f.key).toBe(fullName(c));
      expect(f.status).toBe(c.kind === 'error' ? 'broken' : 'failed');
      expect(f.trace).toBe(c.body);
      expect(f.report_category).toBe(c.suite);
      expect(f.url).toMatch(new RegExp(`^${platform.url}test/\\d+/\\d+$`));
      expect(f.source?.kind).toBe('page_html');
      expect(f.source?.text).toContain('class="test-title"');
      if (withId(platform.quirks.noMessage).truth !== c) expect(f.message).toBe(c.message?.trim());
      if (withId(platform.quirks.noDuration).truth !== c && c.time !== null) {
        expect(Math.abs((f.duration_ms ?? Number.NaN) - c.time * 1000)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('reads pytest parameters from the parameters table', () => {
    for (const c of truth) {
      const id = c.name.match(/\[(.+)\]$/)?.[1];
      expect(byName(c).parameters).toEqual(
        id === undefined || byName(c).source === null ? [] : [{ name: 'id', value: id }],
      );
    }
  });

  it('clicks the folded console log open and keeps what it shows', () => {
    const readable = truth.filter((c) => byName(c).source !== null);
    expect(readable.length).toBeGreaterThan(0);
    for (const c of readable) {
      const log = byName(c).attachments.find((a) => a.name === 'console');
      expect(log?.body?.toString('utf8')).toBe(c.output ?? c.body);
    }
  });

  it('keeps the GBK service log as raw bytes, declared and undeclared, decodable to its Chinese text', () => {
    const gbk = platform.gbk;
    expect(gbk).not.toBeNull();
    if (gbk === null) return;
    const { truth: c, failure } = withId(platform.quirks.gbk);
    const logs = failure.attachments.filter((a) => a.name.startsWith(gbk.name));
    const expectedText = iconv.decode(gbk.bytes, 'gbk');

    expect(logs.map((a) => [a.name, a.media_type, a.declared_charset])).toEqual([
      [gbk.name, 'text/plain', 'GBK'],
      [`${gbk.name} (raw)`, 'text/plain', undefined],
    ]);
    for (const log of logs) {
      expect(log.body?.equals(gbk.bytes)).toBe(true);
      const decoded = decodeBytes(log.body ?? Buffer.alloc(0), log.declared_charset);
      expect(decoded.converted).toBe(true);
      expect(decoded.text).toBe(expectedText);
    }
    // The test's own source, printed by pytest in the XML, holds the lines it logged.
    const lines = expectedText.split('\n').filter((l) => l.trim() !== '');
    expect(lines.some((l) => /[\u4e00-\u9fff]/.test(l))).toBe(true);
    for (const line of lines) expect(c.body).toContain(line);
  });

  it('turns a field missing on one page into null plus a warning', () => {
    const noDuration = withId(platform.quirks.noDuration).failure;
    const noMessage = withId(platform.quirks.noMessage).failure;

    expect(noDuration.duration_ms).toBeNull();
    expect(noDuration.warnings).toEqual([expect.stringMatching(/^duration not shown on /)]);
    expect(noMessage.message).toBeNull();
    expect(noMessage.trace).toBe(withId(platform.quirks.noMessage).truth.body);
    expect(noMessage.warnings).toEqual([expect.stringMatching(/^message not shown on /)]);
  });

  it('has no warning on pages that show every field', () => {
    const quirky = [
      platform.quirks.noDuration,
      platform.quirks.noMessage,
      platform.quirks.serverError,
      platform.quirks.hang,
    ];
    const clean = truth.filter((c) => !quirky.map((id) => withId(id).truth).includes(c));
    for (const c of clean) expect(byName(c).warnings).toEqual([]);
  });

  it('emits a failure with a warning for a detail page answering 500, and one that never loads', () => {
    const error = withId(platform.quirks.serverError);
    const hang = withId(platform.quirks.hang);

    for (const { truth: c, failure } of [error, hang]) {
      expect(failure.status).toBe(c.kind === 'error' ? 'broken' : 'failed');
      expect(failure.message).toBeNull();
      expect(failure.source).toBeNull();
      expect(failure.reached_by[0]).toBe(c.suite);
    }
    expect(error.failure.warnings).toEqual([expect.stringContaining('answered HTTP 500')]);
    expect(hang.failure.warnings).toEqual([
      expect.stringMatching(/could not be read: .*Timeout 3000ms exceeded/),
    ]);
  });

  it('reports the environment the summary page states, from the XML', () => {
    const os = ['os.name', 'os.version', 'os.arch']
      .map(truthProperty)
      .filter((v) => v !== null)
      .join(' ');

    expect(summary.environment).toEqual([
      { name: 'runner', value: truthHostname() },
      { name: 'os', value: os },
      { name: 'java', value: truthProperty('java.version') },
    ]);
    expect(summary.warnings).toEqual([]);
    expect(summary.mode).toBe('dom');
  });
});
