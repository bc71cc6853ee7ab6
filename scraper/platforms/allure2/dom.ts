import type { Page } from 'playwright-core';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';
import { PagePool } from '../../browser/index.ts';
import { emptyFailure, type RawAttachment, type RawFailure } from '../../raw.ts';
import { charsetOf } from '../../text/index.ts';
import { emitFailures } from '../pages.ts';
import type { ScrapeContext, ScrapeSummary } from '../types.ts';
import { expandSteps, type Level3View, readEnvironmentWidgets, readLevel3, readRetries } from './dom-read.ts';
import { dedupeRefs, type FailureRef, level3Url, unreadableFailure } from './listing.ts';

/** DOM mode: Playwright walks the UI's three levels as an engineer would click them. */
export async function scrapeAllure2Dom(ctx: ScrapeContext): Promise<ScrapeSummary> {
  const browser = await ctx.browser();
  const { refs, environment } = await browser.withPage(async (page) => ({
    refs: await listFailures(page, ctx),
    environment: await readEnvironment(page, ctx),
  }));
  const pool = await PagePool.open(browser, ctx.limits.concurrency, (page) =>
    gotoReport(page, ctx, '#categories'),
  );
  let warnings: string[];
  try {
    warnings = await emitFailures(
      ctx,
      refs,
      { concurrency: pool.size, label: (ref) => ref.testName },
      (ref) => pool.use((page) => readFailure(page, ctx, ref)),
      (ref, error) => unreadableFailure(ctx.source.displayUrl, ref, error),
    );
  } finally {
    await pool.close();
  }
  return { environment, warnings, mode: 'dom', failures: refs.length };
}

async function readEnvironment(page: Page, ctx: ScrapeContext): Promise<ScrapeSummary['environment']> {
  await gotoReport(page, ctx, '#');
  return readEnvironmentWidgets(page);
}

/**
 * Levels 1 and 2: opens every category and message group, then reads every test link with the
 * titles of the levels above it. Allure 2.3x+ re-renders the whole tree on each click, so a
 * thousand groups clicked one by one cost minutes; the UI's own "expand all" (what it does for a
 * search) opens them in one pass. Older UIs without it are clicked open.
 */
async function listFailures(page: Page, ctx: ScrapeContext): Promise<FailureRef[]> {
  await gotoReport(page, ctx, '#categories');
  await page.waitForSelector('.tree__content .node, .tree__empty, .tree__content:empty', {
    state: 'attached',
  });
  await page.evaluate(() => {
    type TreeView = HTMLElement & {
      expandAllGroups?: (items: unknown) => void;
      treeProjection?: { items: unknown };
    };
    const tree = document.querySelector('allure-tree-view') as TreeView | null;
    if (tree?.expandAllGroups && tree.treeProjection) {
      tree.expandAllGroups(tree.treeProjection.items);
      return;
    }
    const collapsed = '.tree .node[data-node-kind="group"]:not(.node__expanded) > .node__title';
    for (let n = 0; n < 100_000; n++) {
      const title = document.querySelector<HTMLElement>(collapsed);
      if (!title) break;
      title.click();
    }
  });
  const refs = await page.evaluate(() =>
    [...document.querySelectorAll('.tree > .tree__content > .node')].flatMap((category) =>
      [...category.querySelectorAll(':scope > .node__children > .node[data-node-kind="group"]')].flatMap(
        (group) =>
          [...group.querySelectorAll(':scope > .node__children a.node__leaf')].map((leaf) => {
            const [, groupUid = '', testUid = ''] =
              leaf.getAttribute('href')?.match(/#categories\/([^/]+)\/([^/]+)/) ?? [];
            return {
              category:
                category.querySelector(':scope > .node__title .node__name')?.textContent?.trim() ?? '',
              group: group.querySelector(':scope > .node__title .node__name')?.textContent ?? '',
              groupUid,
              testUid,
              testName: leaf.querySelector('.node__name')?.textContent ?? '',
            };
          }),
      ),
    ),
  );
  return dedupeRefs(refs);
}

async function gotoReport(page: Page, ctx: ScrapeContext, hash: string): Promise<void> {
  try {
    await page.goto(`${ctx.source.displayUrl}${hash}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.side-nav, .app', { state: 'attached' });
  } catch (err: unknown) {
    throw new DiagnosisError(
      'PAGE_TIMEOUT',
      `${ctx.source.displayUrl} did not load as an Allure 2 report: ${describeError(err)}`,
      {
        input: ctx.input,
        cause: err,
      },
    );
  }
}

async function readFailure(page: Page, ctx: ScrapeContext, ref: FailureRef): Promise<RawFailure> {
  // The test-result route renders the same level-3 view without the 1,000-leaf tree beside it.
  const route = `#testresult/${ref.testUid}/`;
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, route);
  await page.waitForSelector(`.test-result .tabs a[href="${route}"]`, { state: 'attached' });
  await expandSteps(page);
  const view = await readLevel3(page);
  const html = await page.locator('.test-result').evaluate((el) => el.outerHTML);
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, `${route}retries`);
  await page.waitForSelector('.test-result-retries', { state: 'attached' });
  const retries = await readRetries(page);
  return toRawFailure(view, ctx, ref, {
    retries,
    html,
    attachments: await Promise.all(view.attachments.map((a) => readAttachment(ctx, a))),
  });
}

function toRawFailure(
  view: Level3View,
  ctx: ScrapeContext,
  ref: FailureRef,
  extra: { retries: RawFailure['retries']; html: string; attachments: RawAttachment[] },
): RawFailure {
  return {
    ...emptyFailure({
      name: view.name,
      key: view.fullName ?? view.name,
      status: view.status,
      url: level3Url(ctx.source.displayUrl, ref),
    }),
    full_name: view.fullName,
    reached_by: [ref.category, ref.group],
    report_category: ref.category,
    message: view.message,
    trace: view.trace,
    steps: view.steps,
    parameters: view.parameters,
    retries: extra.retries,
    flaky: view.flaky,
    attachments: extra.attachments,
    source: { kind: 'page_html', text: extra.html },
  };
}

/** The UI links each attachment's raw file; reading its bytes keeps non-UTF-8 logs decodable. */
async function readAttachment(
  ctx: ScrapeContext,
  row: Level3View['attachments'][number],
): Promise<RawAttachment> {
  const base = { name: row.name, media_type: row.type };
  if (row.download === null) return { ...base, body: null, error: 'the page links no file for it' };
  try {
    const got = await ctx.source.tryGet(row.download);
    if (got === null) return { ...base, body: null, error: `${row.download} is missing` };
    const charset = charsetOf(got.contentType);
    return { ...base, body: got.body, ...(charset ? { declared_charset: charset } : {}) };
  } catch (err: unknown) {
    return { ...base, body: null, error: describeError(err) };
  }
}
