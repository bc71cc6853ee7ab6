import { pino } from 'pino';
import { BrowserSession, originOf } from '../../scraper/browser/index.ts';
import type { Progress, ScrapeContext, ScrapeLimits } from '../../scraper/platforms/types.ts';
import type { RawFailure } from '../../scraper/raw.ts';
import type { ReportSource } from '../../scraper/source/report-source.ts';
import type { ScrapeMode } from '../../src/schemas/index.ts';

export const silentProgress: Progress = { start: () => {}, tick: () => {}, done: () => {} };

export interface CollectingContext {
  ctx: ScrapeContext;
  /** Emitted failures in report order (by their `order`). */
  failures: () => RawFailure[];
  close: () => Promise<void>;
}

/** A scrape context for adapter tests: collects emitted failures and owns a lazily opened browser. */
export function collectingContext(
  source: ReportSource,
  mode: ScrapeMode,
  limits: Partial<ScrapeLimits> = {},
): CollectingContext {
  const emitted = new Map<number, RawFailure>();
  let browser: Promise<BrowserSession> | undefined;
  const ctx: ScrapeContext = {
    source,
    input: source.displayUrl,
    mode,
    limits: { pageTimeoutMs: 15_000, concurrency: 2, pageRetries: 1, ...limits },
    browser: () => {
      browser ??= BrowserSession.open(originOf(source.rootUrl));
      return browser;
    },
    progress: silentProgress,
    log: pino({ level: 'silent' }),
    emit: async (order, failure) => {
      emitted.set(order, failure);
    },
  };
  return {
    ctx,
    failures: () => [...emitted.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f),
    close: async () => {
      if (browser) await (await browser).close();
    },
  };
}
