import type { Download, Page, Response } from 'playwright-core';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';
import { PagePool } from '../../browser/index.ts';
import { emptyFailure, type RawAttachment, type RawFailure } from '../../raw.ts';
import { charsetOf } from '../../text/index.ts';
import { emitFailures } from '../pages.ts';
import type { ScrapeContext, ScrapeSummary } from '../types.ts';
import { MISSED_ATTACHMENT, unreadable } from './data.ts';
import {
  type AttachmentView,
  type LeafView,
  type Level3View,
  openCollapsedGroups,
  openCollapsedSteps,
  readAttachments,
  readDiffDialog,
  readLeaves,
  readOverview,
  readRetries,
  showAllMetadata,
} from './dom-read.ts';
import { assertHasTests, openReportData, readCategories, readEnvironment } from './files.ts';
import { FAILING, type FailureRef, level3Url } from './listing.ts';
import { failureKey, parseDuration, shownText } from './shown.ts';

/** Bounds on expansion loops: a report deeper than this is drawn incompletely, with a warning. */
const MAX_GROUP_PASSES = 8;
const MAX_STEP_PASSES = 30;

interface DomRef extends FailureRef {
  leaf: LeafView;
}

/** DOM mode: Playwright walks #categories → category → test → level 3 as an engineer would. */
export async function scrapeAllure3Dom(ctx: ScrapeContext): Promise<ScrapeSummary> {
  if (!ctx.source.isHttp) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `DOM mode needs ${ctx.input} served over HTTP: the Allure 3 UI loads its data with fetch, which browsers refuse on file:// pages`,
      { input: ctx.input },
    );
  }
  const data = await openReportData(ctx.source);
  // Read first: a wrong address or a foreign report fails here, before a browser starts.
  const tree = await readCategories(data, ctx.source, ctx.input);
  if (tree.roots.length === 0) await assertHasTests(data, ctx.input);
  const warnings: string[] = [];
  const browser = await ctx.browser();
  const refs = await browser.withPage((page) => listFailures(page, ctx, tree.roots.length > 0, warnings));
  if (refs.length === 0) await assertHasTests(data, ctx.input);
  const size = Math.min(ctx.limits.concurrency, refs.length);
  const pool = await PagePool.open(browser, size, (page) => gotoReport(page, ctx));
  try {
    warnings.push(
      ...(await emitFailures(
        ctx,
        refs,
        { concurrency: pool.size, label: (ref) => ref.title },
        (ref) => pool.use((page) => readFailure(page, ctx, ref)),
        (ref, error) => unreadable(ctx, ref, error),
      )),
    );
  } finally {
    await pool.close();
  }
  return {
    environment: await readEnvironment(data, ctx.input),
    warnings,
    mode: 'dom',
    failures: refs.length,
  };
}

async function gotoReport(page: Page, ctx: ScrapeContext): Promise<void> {
  try {
    await page.goto(`${ctx.source.displayUrl}#categories`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-testid="base-layout"]', { state: 'attached' });
  } catch (err: unknown) {
    throw new DiagnosisError(
      'PAGE_TIMEOUT',
      `${ctx.source.displayUrl} did not load as an Allure 3 report: ${describeError(err)}`,
      { input: ctx.input, cause: err },
    );
  }
}

/**
 * Levels 1 and 2: opens every category and group inside the page (one round trip per pass,
 * not per node), then reads each test leaf with the titles above it.
 */
async function listFailures(
  page: Page,
  ctx: ScrapeContext,
  hasCategories: boolean,
  warnings: string[],
): Promise<DomRef[]> {
  await gotoReport(page, ctx);
  // The tree is drawn once the categories widget has loaded; with no categories there is none.
  if (hasCategories) await page.waitForSelector('div[id^="cat:"]', { state: 'attached' });
  let pass = 0;
  while ((await openCollapsedGroups(page)) > 0) {
    if (++pass >= MAX_GROUP_PASSES) {
      warnings.push(`category groups nested deeper than ${MAX_GROUP_PASSES} levels were not all opened`);
      break;
    }
  }
  const seen = new Set<string>();
  return (await readLeaves(page))
    .filter((leaf) => {
      if (!FAILING.has(leaf.status) || seen.has(leaf.id)) return false;
      seen.add(leaf.id);
      return true;
    })
    .map((leaf) => ({
      id: leaf.id,
      title: leaf.title,
      reachedBy: leaf.reachedBy.map((t) => shownText(t) ?? ''),
      category: shownText(leaf.category) ?? '',
      leaf,
    }));
}

/**
 * Level 3. The route is left for #categories first so the test-result view unmounts: the
 * single-page app reuses its elements between tests, and a stale title would pass for a new one.
 */
async function readFailure(page: Page, ctx: ScrapeContext, ref: DomRef): Promise<RawFailure> {
  await setRoute(page, '#categories');
  await page.waitForSelector('[data-testid="test-result-info-title"]', { state: 'detached' });
  await setRoute(page, `#categories/${ref.id}`);
  await page.waitForSelector('[data-testid="test-result-info-title"]', { state: 'attached' });
  const warnings: string[] = [];

  await showAllMetadata(page);
  let pass = 0;
  while ((await openCollapsedSteps(page)) > 0) {
    if (++pass >= MAX_STEP_PASSES) {
      warnings.push(`steps nested deeper than ${MAX_STEP_PASSES} levels were not all opened`);
      break;
    }
  }
  // The top error block shows its trace only once its message is clicked. Whether there is a
  // trace at all shows in the steps, where the UI repeats the test's error with its trace open.
  const toggle = page.locator(
    '[data-testid="test-result-error"] button:has(> [data-testid="test-result-error-message"])',
  );
  const traceInSteps = page.locator(
    '[data-testid="test-result-step-header"][data-tr-focus-id^="__test-error__:"] + [data-testid="test-result-step-content"] [data-testid="test-result-error-trace"]',
  );
  if ((await toggle.count()) > 0 && (await traceInSteps.count()) > 0) {
    // Clicked in the page: the sticky header can overlap the block, which Playwright's
    // actionability checks wait on forever, while the UI only needs the click event.
    await toggle.first().evaluate((el: HTMLElement) => el.click());
    await page.waitForFunction(() => {
      const top = [...document.querySelectorAll('[data-testid="test-result-error"]')].find(
        (el) => el.closest('[data-testid="test-result-steps-root"]') === null,
      );
      return top?.querySelector('[data-testid="test-result-error-trace"]') != null;
    });
  }
  const view = await readOverview(page);
  const diff = view.hasDiff ? await readDiff(page) : null;
  const retries = ref.leaf.hasRetries ? await readRetryTab(page, ref.id) : [];
  const attachments = await readAttachmentTab(page, ctx, ref.id);

  return toRawFailure(view, ctx, ref, { diff, retries, attachments, warnings });
}

function toRawFailure(
  view: Level3View,
  ctx: ScrapeContext,
  ref: DomRef,
  extra: {
    diff: { expected: string; actual: string } | null;
    retries: RawFailure['retries'];
    attachments: RawAttachment[];
    warnings: string[];
  },
): RawFailure {
  const fullName = view.fullName;
  const message = shownText(view.message);
  return {
    ...emptyFailure({
      name: view.name,
      key: failureKey(fullName, view.name, view.parameters),
      status: view.status,
      url: level3Url(ctx.source.displayUrl, ref.id),
    }),
    full_name: fullName,
    reached_by: ref.reachedBy,
    report_category: ref.category,
    message,
    trace: shownText(view.trace),
    expected: extra.diff?.expected ?? null,
    actual: extra.diff?.actual ?? null,
    steps: view.steps.map((s) => ({
      name: s.name,
      status: s.status,
      depth: s.depth,
      message: s.hostsTestError ? message : shownText(s.inlineMessage),
    })),
    parameters: view.parameters,
    labels: view.labels,
    retries: extra.retries,
    flaky: ref.leaf.flaky,
    duration_ms: parseDuration(ref.leaf.duration),
    attachments: extra.attachments,
    source: { kind: 'page_html', text: view.html },
    warnings: extra.warnings,
  };
}

async function readDiff(page: Page): Promise<{ expected: string; actual: string } | null> {
  const button = page
    .locator('[data-testid="test-result-error"] [data-testid="test-result-diff-button"]')
    .first();
  await button.evaluate((el: HTMLElement) => el.click());
  await page.waitForSelector('[data-testid="test-result-diff"] pre', { state: 'attached' });
  const diff = await readDiffDialog(page);
  await closeDialog(page);
  return diff;
}

/**
 * Closes the dialog with Escape. The dialog listens for it only from an effect that runs after
 * it is drawn, so an early press is lost: press again until it is gone. Left open, it would
 * show the next attachment row instead (web-awesome opens rows in an open dialog).
 */
async function closeDialog(page: Page): Promise<void> {
  const DIALOG = '[data-testid="test-result-diff"]';
  for (let attempt = 0; attempt < 20; attempt++) {
    await page.keyboard.press('Escape');
    const closed = await page
      .waitForSelector(DIALOG, { state: 'detached', timeout: 250 })
      .then(() => true)
      .catch((err: unknown) => {
        if (err instanceof Error && err.name === 'TimeoutError') return false;
        throw err;
      });
    if (closed) return;
  }
  throw new Error('the diff dialog did not close on Escape');
}

async function readRetryTab(page: Page, id: string): Promise<RawFailure['retries']> {
  await setRoute(page, `#categories/${id}/retries`);
  await page.waitForSelector('[data-testid="test-result-tab-retries"][aria-current="true"]', {
    state: 'attached',
  });
  return (await readRetries(page)).map((r) => ({
    status: r.status,
    message: shownText(r.preview)?.trim() ?? null,
  }));
}

/**
 * The attachments tab lists every attachment of the test (steps included). Bytes come from the
 * UI's own download: the page fetches `data/attachments/<id><ext>`, whose response is read raw.
 */
async function readAttachmentTab(page: Page, ctx: ScrapeContext, id: string): Promise<RawAttachment[]> {
  const counter = page.locator('[data-testid="test-result-tab-attachments"] [data-testid="counter"]');
  if ((await counter.count()) === 0) return [];
  await setRoute(page, `#categories/${id}/attachments`);
  await page.waitForSelector('[data-testid="test-result-tab-attachments"][aria-current="true"]', {
    state: 'attached',
  });
  await page.waitForSelector('[data-testid="test-result-attachment-header"]', { state: 'attached' });
  const rows = await readAttachments(page);
  const attachments: RawAttachment[] = [];
  for (const [index, row] of rows.entries())
    attachments.push(await downloadAttachment(page, ctx, row, index));
  return attachments;
}

async function downloadAttachment(
  page: Page,
  ctx: ScrapeContext,
  row: AttachmentView,
  index: number,
): Promise<RawAttachment> {
  const base = { name: row.name, media_type: row.mediaType };
  if (row.missed) return { ...base, body: null, error: MISSED_ATTACHMENT };
  const path = `/data/attachments/${row.id}`;
  // A single-file report serves the bytes from a data: URL, so there may be no response to see.
  let response: Response | null = null;
  const onResponse = (r: Response) => {
    if (new URL(r.url()).pathname.includes(path)) response = r;
  };
  page.on('response', onResponse);
  let download: Download;
  try {
    const button = page
      .locator('[data-testid="test-result-attachment-header"]')
      .nth(index)
      .locator('button')
      .last();
    [download] = await Promise.all([
      page.waitForEvent('download'),
      button.evaluate((el: HTMLElement) => el.click()),
    ]);
  } catch (err: unknown) {
    return { ...base, body: null, error: `the attachment could not be downloaded: ${describeError(err)}` };
  } finally {
    page.off('response', onResponse);
  }
  try {
    const served = response as Response | null;
    if (served !== null && !served.ok()) {
      const relative = new URL(served.url()).pathname.slice(new URL(ctx.source.rootUrl).pathname.length);
      return {
        ...base,
        body: null,
        error:
          served.status() === 404
            ? `${relative} is missing from the report`
            : `${relative} could not be read: HTTP ${served.status()}`,
      };
    }
    // The download is the blob the page made of the response: the served bytes, untouched
    // (Playwright gives an empty response.body() for fetches the page turns into blobs).
    const body = await readDownload(download);
    const charset = charsetOf(served?.headers()['content-type']);
    return { ...base, body, ...(charset ? { declared_charset: charset } : {}) };
  } finally {
    await download.delete();
  }
}

async function readDownload(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function setRoute(page: Page, hash: string): Promise<void> {
  return page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}
