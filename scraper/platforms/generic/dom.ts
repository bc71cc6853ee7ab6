import type { Locator, Page } from 'playwright-core';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';

/**
 * DOM primitives of the generic walk. Every read checks `count()` first: `textContent()` on a
 * missing element waits for the whole timeout (shared/notes/allure.md), and a field missing on
 * some pages is normal on real platforms.
 */

export type Scope = Page | Locator;

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

/** Trimmed text of the first match, with `<br>` as a line break; null when nothing matches. */
export async function textOf(scope: Scope, selector: string): Promise<string | null> {
  const element = scope.locator(selector).first();
  if ((await element.count()) === 0) return null;
  return (await element.evaluate(readText)).trim();
}

/** Runs in the page: some report UIs render multi-line messages with `<br>`, not newlines. */
function readText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const br of Array.from(copy.querySelectorAll('br'))) br.replaceWith('\n');
  return copy.textContent ?? '';
}

/** Absolute URL of the first matching link; null when there is no match or no href. */
export async function hrefOf(scope: Scope, selector: string, base: string): Promise<string | null> {
  const element = scope.locator(selector).first();
  if ((await element.count()) === 0) return null;
  const href = await element.getAttribute('href');
  if (href === null || href.trim() === '' || href.trim().startsWith('javascript:')) return null;
  return new URL(href.trim(), base).href;
}

/** Every match of `selector` under `scope`, in document order. */
export async function all(scope: Scope, selector: string): Promise<Locator[]> {
  return scope.locator(selector).all();
}

/** Waits until the element shows non-empty text, for content filled in after a click. */
export async function waitForText(element: Locator, timeoutMs: number): Promise<string> {
  await element.waitFor({ state: 'visible', timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = (await element.evaluate(readText)).trim();
    if (text !== '' || Date.now() >= deadline) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
