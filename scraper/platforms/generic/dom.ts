import type { Page } from 'playwright-core';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';

/**
 * DOM primitives of the generic walk. Each page is read in a few in-page evaluations rather
 * than one Playwright call per field: a round trip costs 50–100 ms on a loaded CI machine, and
 * a list page has dozens of fields. A selector that matches nothing gives null, never a wait
 * (unlike `locator.textContent()`, which waits for the whole timeout).
 */

export interface PageOptions {
  timeoutMs: number;
  /** Selector that must be attached before the page is read (JavaScript-rendered sites). */
  ready?: string | undefined;
}

/** Navigates and fails on HTTP errors, which browsers otherwise render as ordinary pages. */
export async function openPage(page: Page, url: string, options: PageOptions): Promise<void> {
  page.setDefaultTimeout(options.timeoutMs);
  const response = await page.goto(url, { timeout: options.timeoutMs, waitUntil: 'load' });
  const status = response?.status() ?? 200;
  if (status >= 400) {
    throw new DiagnosisError('HTTP_ERROR', `${url} answered HTTP ${status}`, { input: url });
  }
  if (options.ready !== undefined) {
    await page.locator(options.ready).first().waitFor({ state: 'attached', timeout: options.timeoutMs });
  }
}

/** Turns a Playwright failure of a level-1/2 page into a coded error naming the page. */
export function pageError(url: string, err: unknown): DiagnosisError {
  if (err instanceof DiagnosisError) return err;
  const timedOut = err instanceof Error && err.name === 'TimeoutError';
  return new DiagnosisError(
    timedOut ? 'PAGE_TIMEOUT' : 'HTTP_ERROR',
    `${url} could not be read: ${describeError(err)}`,
    { input: url, cause: err },
  );
}

/** `text`: trimmed text with `<br>` as a line break; `href`: absolute link target. */
export interface FieldSpec {
  css: string;
  take: 'text' | 'href';
}

export type Fields = Record<string, FieldSpec | undefined>;
export type Row = Record<string, string | null>;

/** Matches the element a row field is read from: the row itself. */
export const SELF = ':scope';

/**
 * One record per element matching `row`, with each field read relative to it. A field whose
 * selector is undefined or matches nothing is null; a link without href (a dead "next" span,
 * `javascript:`) is null too.
 */
export async function extractRows(page: Page, row: string, fields: Fields): Promise<Row[]> {
  const specs = Object.entries(fields).filter((e): e is [string, FieldSpec] => e[1] !== undefined);
  const rows = await page.evaluate(readRowsInPage, { row, specs });
  return rows.map((r) => Object.fromEntries(Object.keys(fields).map((k) => [k, r[k] ?? null])));
}

/** Document-level fields. */
export async function extractPage(page: Page, fields: Fields): Promise<Row> {
  const none: Row = Object.fromEntries(Object.keys(fields).map((k) => [k, null]));
  if (Object.values(fields).every((f) => f === undefined)) return none;
  const [record] = await extractRows(page, ':root', fields);
  return record ?? none;
}

/** Runs in the page, so it must not refer to anything outside itself. */
function readRowsInPage(args: { row: string; specs: Array<[string, FieldSpec]> }): Row[] {
  const read = (element: Element, take: FieldSpec['take']): string | null => {
    if (take === 'href') {
      const href = element.getAttribute('href')?.trim() ?? '';
      return href === '' || /^javascript:/i.test(href) ? null : new URL(href, document.baseURI).href;
    }
    // Some report UIs render multi-line messages with <br>, not newlines.
    const copy = element.cloneNode(true) as Element;
    for (const br of Array.from(copy.querySelectorAll('br'))) br.replaceWith('\n');
    return (copy.textContent ?? '').trim();
  };
  return Array.from(document.querySelectorAll(args.row)).map((row) => {
    const record: Row = {};
    for (const [name, spec] of args.specs) {
      const element = spec.css === ':scope' ? row : row.querySelector(spec.css);
      record[name] = element === null ? null : read(element, spec.take);
    }
    return record;
  });
}

/** Config paths whose selector the browser rejects, so a typo fails once, naming the field. */
export async function invalidSelectors(page: Page, selectors: Array<[string, string]>): Promise<string[]> {
  return page.evaluate((list) => {
    const probe = document.createDocumentFragment();
    const bad: string[] = [];
    for (const [path, css] of list) {
      try {
        probe.querySelector(css);
      } catch (err: unknown) {
        if (!(err instanceof DOMException)) throw err;
        bad.push(`field "${path}": "${css}" is not a valid CSS selector`);
      }
    }
    return bad;
  }, selectors);
}

/** Waits until the element is shown with non-empty text, for content filled in after a click. */
export async function waitForText(page: Page, css: string, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    (selector) => {
      const element = document.querySelector(selector);
      if (element === null || element.getClientRects().length === 0) return false;
      return (element.textContent ?? '').trim() !== '';
    },
    css,
    { timeout: timeoutMs, polling: 100 },
  );
}
