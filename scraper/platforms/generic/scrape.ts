import type { BrowserSession } from '../../browser/index.ts';
import type { RawFailure } from '../../raw.ts';
import { forEachBounded } from '../pages.ts';
import type { ScrapeContext, ScrapeSummary } from '../types.ts';
import type { GenericPlatformConfig } from './config.ts';
import { listedFailure, readDetail } from './detail.ts';
import { pageError } from './dom.ts';
import { EnvironmentCollector } from './environment.ts';
import { type Category, type ListedTest, readCategory, readSummary } from './listing.ts';

/**
 * The three-level walk: summary (level 1), paginated lists (level 2), then every failure's
 * detail page (level 3) in bounded parallel. Failures are emitted in level-1 then level-2 order
 * whatever order detail pages finish in.
 */
export async function scrapeGeneric(
  config: GenericPlatformConfig,
  ctx: ScrapeContext,
): Promise<ScrapeSummary> {
  const browser = await ctx.browser();
  const warnings: string[] = [];
  if (ctx.mode !== 'dom')
    warnings.push(`platform "${config.name}" has only a DOM mode; ${ctx.mode} was asked`);
  const summaryUrl = new URL(config.summary.path, ctx.source.rootUrl).href;
  const summary = await browser
    .withPage((page) => readSummary(page, summaryUrl, config, ctx.limits.pageTimeoutMs))
    .catch((err: unknown) => {
      throw pageError(summaryUrl, err);
    });
  warnings.push(...summary.warnings);
  const tests = await listFailures(browser, summary.categories, config, ctx, warnings);
  const environment = new EnvironmentCollector();
  environment.add(summary.environment);
  await readDetails(browser, tests, config, ctx, environment);
  return { environment: environment.facts(), warnings, mode: 'dom', failures: tests.length };
}

/** Level 2 of every category; a list that cannot be read after retries becomes a warning. */
async function listFailures(
  browser: BrowserSession,
  categories: readonly Category[],
  config: GenericPlatformConfig,
  ctx: ScrapeContext,
  warnings: string[],
): Promise<ListedTest[]> {
  const perCategory: ListedTest[][] = categories.map(() => []);
  const categoryWarnings: string[][] = categories.map(() => []);
  await forEachBounded(
    categories,
    { concurrency: ctx.limits.concurrency, retries: ctx.limits.pageRetries },
    async (category, index) => {
      const listed = await browser.withPage((page) =>
        readCategory(page, category, config, ctx.limits.pageTimeoutMs),
      );
      perCategory[index] = listed.tests;
      categoryWarnings[index] = listed.warnings;
    },
    async (category, index, error) => {
      categoryWarnings[index] = [
        `category "${category.title}" (${category.url}) could not be listed, its failures are missing: ${error}`,
      ];
    },
  );
  warnings.push(...categoryWarnings.flat());
  return perCategory.flat();
}

async function readDetails(
  browser: BrowserSession,
  tests: readonly ListedTest[],
  config: GenericPlatformConfig,
  ctx: ScrapeContext,
  environment: EnvironmentCollector,
): Promise<void> {
  ctx.progress.start(tests.length, 'failures');
  // An emit that throws is the sink failing, not the page: it must end the scrape, not become
  // a "page could not be read" failure.
  const sinkErrors = new Map<number, unknown>();
  const emit = async (order: number, failure: RawFailure): Promise<void> => {
    try {
      await ctx.emit(order, failure);
    } catch (err: unknown) {
      sinkErrors.set(order, err);
      throw err;
    }
    ctx.progress.tick();
  };
  await forEachBounded(
    tests,
    { concurrency: ctx.limits.concurrency, retries: ctx.limits.pageRetries },
    async (test, order) => {
      const read = await browser.withPage((page) => readDetail(page, test, config, ctx.limits.pageTimeoutMs));
      environment.add(read.environment);
      await emit(order, read.failure);
    },
    async (test, order, error) => {
      if (sinkErrors.has(order)) throw sinkErrors.get(order);
      ctx.log.warn({ url: test.url, error }, 'generic platform: detail page given up');
      await emit(order, listedFailure(test, config, error));
    },
  );
  ctx.progress.done();
}
