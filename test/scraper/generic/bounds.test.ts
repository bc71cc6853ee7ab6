import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGenericAdapter, loadPlatformConfig } from '../../../scraper/platforms/generic/index.ts';
import { openReportSource } from '../../../scraper/source/report-source.ts';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { type FixturePlatform, startFixturePlatform } from '../../fixtures/platform/server.ts';
import { collectingContext } from '../../helpers/scrape-context.ts';
import { truthCases, truthFailures } from './truth.ts';

const CONFIG = 'config/platforms/fixture-platform.json';
/** No retries: the never-loading page would otherwise cost a second timeout per scrape. */
const LIMITS = { pageTimeoutMs: 3_000, concurrency: 3, pageRetries: 0 };

describe('generic platform config bounds', () => {
  let platform: FixturePlatform;

  beforeAll(async () => {
    platform = await startFixturePlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('stops at list.maxPages with a warning', async () => {
    const config = await loadPlatformConfig(CONFIG);
    const collecting = collectingContext(await openReportSource(platform.url), 'dom', LIMITS);
    const onFirstPages = truthFailures().filter((c) => c.index < 3);
    const paged = [
      ...new Set(
        truthCases()
          .filter((c) => c.index >= 3)
          .map((c) => c.suite),
      ),
    ];

    const summary = await createGenericAdapter({ ...config, list: { ...config.list, maxPages: 1 } })
      .scrape(collecting.ctx)
      .finally(() => collecting.close());

    expect(collecting.failures().map((f) => f.name)).toEqual(onFirstPages.map((c) => c.name));
    expect(paged.length).toBeGreaterThan(0);
    for (const suite of paged) {
      expect(summary.warnings).toContain(`category "${suite}": stopped after 1 list pages (list.maxPages)`);
    }
  });

  it('rejects a selector the browser cannot parse, naming the config field', async () => {
    const config = await loadPlatformConfig(CONFIG);
    const collecting = collectingContext(await openReportSource(platform.url), 'dom', LIMITS);
    const broken = { ...config, detail: { ...config.detail, message: 'div.message[' } };

    const err = await createGenericAdapter(broken)
      .scrape(collecting.ctx)
      .finally(() => collecting.close())
      .then(
        () => null,
        (e: unknown) => e,
      );

    expect(err).toBeInstanceOf(DiagnosisError);
    expect((err as DiagnosisError).code).toBe('PLATFORM_CONFIG_INVALID');
    expect((err as DiagnosisError).message).toContain('field "detail.message"');
  });
});
