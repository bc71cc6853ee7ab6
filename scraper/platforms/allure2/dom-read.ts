import type { Page } from 'playwright-core';
import type { RawStep } from '../../raw.ts';

/**
 * What the level-3 page of the Allure 2 UI shows, read in one pass inside the page. Selectors
 * are from shared/notes/allure.md; Allure 2.46 renders message/trace with `<br>`, so those are
 * turned back into newlines before reading text.
 */
export interface Level3View {
  name: string;
  fullName: string | null;
  status: string;
  message: string | null;
  trace: string | null;
  parameters: Array<{ name: string; value: string }>;
  steps: RawStep[];
  attachments: Array<{ uid: string; name: string; type: string | null; download: string | null }>;
  flaky: boolean;
}

/** Opens every collapsed step (nested ones appear as their parents open), bounded. */
export async function expandSteps(page: Page, maxClicks = 300): Promise<void> {
  const collapsed = page.locator('.test-result .step:not(.step_expanded) > .step__title_hasContent');
  for (let i = 0; i < maxClicks && (await collapsed.count()) > 0; i++) {
    await collapsed.first().click();
  }
}

export function readLevel3(page: Page): Promise<Level3View> {
  return page.evaluate(() => {
    const root = document.querySelector('.test-result') as HTMLElement;
    const text = (el: Element | null | undefined): string | null => {
      if (!el) return null;
      const copy = el.cloneNode(true) as HTMLElement;
      for (const br of copy.querySelectorAll('br')) br.replaceWith('\n');
      return copy.textContent;
    };
    const statusOf = (el: Element | null | undefined): string | null =>
      el?.getAttribute('class')?.match(/status_(\w+)/)?.[1] ?? null;
    const overview = root.querySelector('.test-result-overview');
    const steps: RawStep[] = [];
    const walk = (container: Element, depth: number): void => {
      for (const step of container.querySelectorAll(':scope > .step')) {
        const title = step.querySelector(':scope > .step__title');
        const content = step.querySelector(':scope > .step__content');
        if (!title) continue; // an attachment row wrapped as a step
        if (title.classList.contains('step__title_stage')) {
          // Only the test body is the test's own execution; set-up and tear-down are fixtures.
          if (content && title.textContent?.trim() === 'Test body') walk(content, depth);
          continue;
        }
        const message = content?.querySelector(':scope > .status-details .status-details__message');
        steps.push({
          name: title.querySelector('.step__name')?.textContent ?? '',
          status: statusOf(title.querySelector('.status-icon')),
          depth,
          message: text(message),
        });
        if (content) walk(content, depth + 1);
      }
    };
    const execution = root.querySelector('.execution__content');
    if (execution) walk(execution, 0);
    const body = [...(execution?.querySelectorAll(':scope > .step') ?? [])].find(
      (s) => s.querySelector(':scope > .step__title')?.textContent?.trim() === 'Test body',
    );
    return {
      name: root.querySelector('.test-result__name .long-line')?.textContent ?? '',
      fullName: root.querySelector('.fullname__body')?.textContent ?? null,
      status: statusOf(root.querySelector('.test-result__status .label')) ?? 'unknown',
      message: text(overview?.querySelector(':scope > .alert__wide .status-details__message')),
      trace: text(overview?.querySelector(':scope > .alert__wide .status-details__trace')),
      parameters: [...root.querySelectorAll('.test-result-overview__before .environment')].map((row) => ({
        name: row.querySelector('.environment__key')?.textContent ?? '',
        value: row.querySelector('span:not(.environment__key)')?.textContent ?? '',
      })),
      steps,
      attachments: [...(body?.querySelectorAll('.attachment-row[data-uid]') ?? [])].map((row) => ({
        uid: row.getAttribute('data-uid') ?? '',
        name: row.querySelector('.attachment-row__name')?.textContent ?? '',
        type: row.getAttribute('data-type'),
        download: row.querySelector('[data-download]')?.getAttribute('data-download') ?? null,
      })),
      flaky:
        root.querySelector(
          '.test-result__marks [class*="flaky"], .test-result__marks [data-tooltip="Flaky"]',
        ) !== null,
    };
  });
}

/** The Retries tab: one row per earlier attempt, with its status and message. */
export function readRetries(page: Page): Promise<Array<{ status: string; message: string | null }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.test-result-retries .retry-row')].map((row) => ({
      status: row.querySelector('.label')?.textContent?.trim().toLowerCase() ?? 'unknown',
      message: row.querySelector('pre')?.textContent ?? null,
    })),
  );
}

/** The Overview page's Environment and Executors widgets, as the data mode reads their files. */
export async function readEnvironmentWidgets(page: Page): Promise<Array<{ name: string; value: string }>> {
  // Widgets render one by one; the Environment widget is always on the Overview, rows or not.
  await page.waitForSelector('.widget[data-id="environment"] .widget__title', { state: 'attached' });
  await page.waitForSelector('.widget[data-id="executors"] .widget__title', { state: 'attached' });
  const expand = page.locator('.widget[data-id="environment"] .environment-widget__expand');
  if ((await expand.count()) > 0) await expand.first().click();
  return page.evaluate(() => {
    const cols = (row: Element) => [...row.querySelectorAll(':scope > .table__col')];
    const env = [...document.querySelectorAll('.widget[data-id="environment"] .table__row')]
      .map(cols)
      .filter((c) => c.length === 2)
      .map(([key, value]) => ({
        name: key?.textContent?.trim() ?? '',
        value: value?.textContent?.trim() ?? '',
      }));
    const executors = [...document.querySelectorAll('.widget[data-id="executors"] .table__row')].flatMap(
      (row) => {
        const [who, build] = cols(row);
        const link = build?.querySelector('a[href]')?.getAttribute('href');
        return [
          ['executor', who?.textContent?.trim()],
          ['build', build?.textContent?.trim()],
          ['build.url', link],
        ].flatMap(([name, value]) => (value ? [{ name: name as string, value }] : []));
      },
    );
    return [...env, ...executors];
  });
}
