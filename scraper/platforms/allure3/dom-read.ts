import type { Page } from 'playwright-core';

/**
 * In-page readers of the Awesome UI. Class names there are build hashes, so every selector is
 * a `data-testid`, an id prefix (`cat:`, `message:`, `__test-error__:`), `data-tree-node-id`,
 * `data-tr-focus-id`, `aria-current` or document structure; the functions passed to
 * `page.evaluate` run in the page and must not use anything from this module.
 */

/** A failed or broken test leaf of the #categories tree, with the titles above it. */
export interface LeafView {
  id: string;
  title: string;
  status: string;
  /** Category title, then message group titles (raw text). */
  reachedBy: string[];
  category: string;
  flaky: boolean;
  hasRetries: boolean;
  duration: string | null;
}

/** Opens every collapsed category and group; returns how many it opened this pass. */
export function openCollapsedGroups(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let opened = 0;
    for (const node of document.querySelectorAll<HTMLElement>(
      'div[id^="cat:"], div[id^="message:"], div[id^="group:"], div[id^="history:"]',
    )) {
      if (node.querySelector(':scope > div > [data-tree-content]')) continue;
      const header = node.querySelector(':scope > [data-tree-header]');
      const arrow =
        header?.querySelector<HTMLElement>('[data-testid="tree-arrow"]') ?? header?.querySelector('button');
      if (arrow instanceof HTMLElement) {
        arrow.click();
        opened++;
      }
    }
    // Clicking twice closes again: return only once the UI has drawn what was opened.
    if (opened > 0) await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return opened;
  });
}

export function readLeaves(page: Page): Promise<LeafView[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button[data-tree-node-id]')].map((leaf) => {
      const statusEl = leaf.querySelector('[data-testid^="tree-leaf-status-"]');
      const reachedBy: string[] = [];
      let category = '';
      for (let el = leaf.parentElement; el !== null; el = el.parentElement) {
        if (el.id.startsWith('cat:')) {
          const title = el.querySelector(
            ':scope > [data-tree-header] [data-testid="tree-section-title"] span',
          );
          category = title?.textContent ?? '';
          reachedBy.unshift(category);
        } else if (el.id.startsWith('message:')) {
          reachedBy.unshift(el.querySelector(':scope > [data-tree-header] pre')?.textContent ?? '');
        }
      }
      return {
        id: leaf.getAttribute('data-tree-node-id') ?? '',
        title: leaf.querySelector('[data-testid="tree-leaf-title"]')?.textContent ?? '',
        status: statusEl?.getAttribute('data-testid')?.slice('tree-leaf-status-'.length) ?? '',
        reachedBy,
        category,
        flaky: leaf.querySelector('[data-testid="tree-leaf-flaky"]') !== null,
        hasRetries: leaf.querySelector('[data-testid="tree-leaf-retries"]') !== null,
        duration: leaf.querySelector('[data-testid="tree-leaf-duration"]')?.textContent ?? null,
      };
    }),
  );
}

/**
 * Opens every collapsed step of the test body (nested steps exist only once their parent is
 * open) and the "show more" of long label and parameter lists; returns how many it opened.
 */
export function openCollapsedSteps(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let opened = 0;
    const root = document.querySelector('[data-testid="test-result-steps-root"]');
    for (const step of root?.querySelectorAll('[data-testid="test-result-step"]') ?? []) {
      if (step.querySelector(':scope > [data-testid="test-result-step-content"]')) continue;
      const arrow = step.querySelector<HTMLElement>(
        ':scope > [data-testid="test-result-step-header"] [data-testid="test-result-step-arrow-button"]',
      );
      if (arrow) {
        arrow.click();
        opened++;
      }
    }
    // Clicking twice closes again: return only once the UI has drawn what was opened.
    if (opened > 0) await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return opened;
  });
}

/** Clicks "show more" under the Labels and Parameters lists (only the first 8 are drawn). */
export function showAllMetadata(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const inSteps = (el: Element) => el.closest('[data-testid="test-result-steps-root"]') !== null;
    const lists = new Set<Element>();
    for (const item of document.querySelectorAll('[data-testid="metadata-item"]')) {
      if (!inSteps(item) && item.parentElement) lists.add(item.parentElement);
    }
    let clicked = 0;
    for (const list of lists) {
      const more = list.parentElement?.querySelector<HTMLElement>(':scope > button');
      if (more) {
        more.click();
        clicked++;
      }
    }
    if (clicked > 0) await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    return clicked;
  });
}

export interface StepView {
  name: string;
  status: string | null;
  depth: number;
  /** The step's own inline error message, if the page shows one. */
  inlineMessage: string | null;
  /** The test's error is drawn under this step (web-awesome places it under the deepest match). */
  hostsTestError: boolean;
}

export interface Level3View {
  name: string;
  fullName: string | null;
  status: string;
  message: string | null;
  /** Trace of the top error block (after its toggle) or of the test-error node in the steps. */
  trace: string | null;
  hasDiff: boolean;
  parameters: Array<{ name: string; value: string }>;
  labels: Array<{ name: string; value: string }>;
  steps: StepView[];
  html: string;
}

/** Everything of the overview tab, in one pass. */
export function readOverview(page: Page): Promise<Level3View> {
  return page.evaluate(() => {
    const testidSuffix = (el: Element | null | undefined, prefix: string): string | null =>
      el?.getAttribute('data-testid')?.slice(prefix.length) ?? null;
    const stepsRoot = document.querySelector('[data-testid="test-result-steps-root"]');
    const inSteps = (el: Element) => el.closest('[data-testid="test-result-steps-root"]') !== null;
    const topError = [...document.querySelectorAll('[data-testid="test-result-error"]')].find(
      (el) => !inSteps(el),
    );
    const errorNode = stepsRoot
      ?.querySelector('[data-testid="test-result-step-header"][data-tr-focus-id^="__test-error__:"]')
      ?.closest('[data-testid="test-result-step"]');
    const trace =
      topError?.querySelector('[data-testid="test-result-error-trace"] pre')?.textContent ??
      errorNode?.querySelector('[data-testid="test-result-error-trace"] pre')?.textContent ??
      null;

    const metadata = (list: Element | null | undefined) =>
      [...(list?.querySelectorAll(':scope > [data-testid="metadata-item"]') ?? [])].flatMap((item) => {
        const name = item.querySelector('[data-testid="metadata-item-key"]')?.textContent ?? '';
        const value = item.querySelector('[data-testid="metadata-item-value"]');
        return [...(value?.children ?? [])].map((v) => ({ name, value: v.textContent ?? '' }));
      });
    const outside = [...document.querySelectorAll('[data-testid="metadata-item"]')].filter(
      (el) => !inSteps(el),
    );
    const parameterList = outside.find(
      (el) => el.parentElement?.getAttribute('data-testid') === 'metadata-list',
    );
    const labelList = outside.find((el) => el.parentElement?.getAttribute('data-testid') !== 'metadata-list');

    const steps: Array<{
      name: string;
      status: string | null;
      depth: number;
      inlineMessage: string | null;
      hostsTestError: boolean;
    }> = [];
    const ownerOf = (step: Element) =>
      step.parentElement?.closest('[data-testid="test-result-step"], [data-testid="test-result-steps-root"]');
    const walk = (owner: Element, scope: Element, depth: number) => {
      for (const step of scope.querySelectorAll('[data-testid="test-result-step"]')) {
        if (ownerOf(step) !== owner) continue;
        const header = step.querySelector(':scope > [data-testid="test-result-step-header"]');
        if (header?.getAttribute('data-tr-focus-id')?.startsWith('__test-error__:')) continue;
        const content = step.querySelector(':scope > [data-testid="test-result-step-content"]');
        const hostsTestError = [
          ...(content?.querySelectorAll(
            '[data-testid="test-result-step-header"][data-tr-focus-id^="__test-error__:"]',
          ) ?? []),
        ].some((h) => ownerOf(h.closest('[data-testid="test-result-step"]') as Element) === step);
        const inline = content?.querySelector(
          ':scope > [data-testid="test-result-error"] [data-testid="test-result-error-message"] pre',
        );
        steps.push({
          name: header?.querySelector('[data-testid="test-result-step-title"]')?.textContent ?? '',
          status: testidSuffix(
            header?.querySelector('[data-testid^="tree-leaf-status-"]'),
            'tree-leaf-status-',
          ),
          depth,
          inlineMessage: inline?.textContent ?? null,
          hostsTestError,
        });
        if (content) walk(step, content, depth + 1);
      }
    };
    if (stepsRoot) walk(stepsRoot, stepsRoot, 0);

    return {
      name: document.querySelector('[data-testid="test-result-info-title"]')?.textContent ?? '',
      fullName: document.querySelector('[data-testid="test-result-fullname"]')?.textContent ?? null,
      status:
        testidSuffix(document.querySelector('[data-testid^="test-result-status-"]'), 'test-result-status-') ??
        'unknown',
      message: topError?.querySelector('[data-testid="test-result-error-message"] pre')?.textContent ?? null,
      trace,
      hasDiff: topError?.querySelector('[data-testid="test-result-diff-button"]') != null,
      parameters: metadata(parameterList?.parentElement),
      labels: metadata(labelList?.parentElement),
      steps,
      html: document.querySelector('[data-tr-scroll-container][role="presentation"]')?.outerHTML ?? '',
    };
  });
}

/**
 * Expected and actual from the diff dialog. Its unified view draws the expected text, then
 * the diff chunks (jsdiff: common, removed = expected only, added = actual only). Which hashed
 * class marks "removed" is found by rebuilding the expected text; actual is the rest.
 */
export function readDiffDialog(page: Page): Promise<{ expected: string; actual: string } | null> {
  return page.evaluate(() => {
    const pre = document.querySelector('[data-testid="test-result-diff"] pre');
    if (!pre) return null;
    const [first, ...chunks] = [...pre.children];
    const expected = first?.textContent ?? '';
    const classes = [...new Set(chunks.map((c) => c.className).filter((c) => c !== ''))];
    const join = (keep: (cls: string) => boolean) =>
      chunks
        .filter((c) => keep(c.className))
        .map((c) => c.textContent ?? '')
        .join('');
    const removed = classes.find((cls) => join((c) => c === '' || c === cls) === expected);
    const actual =
      removed === undefined && classes.length > 1
        ? null
        : join((c) => c !== removed || removed === undefined);
    return actual === null ? null : { expected, actual };
  });
}

export interface RetryView {
  status: string;
  preview: string | null;
}

export function readRetries(page: Page): Promise<RetryView[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="test-result-retries-item"]')].map((item) => ({
      status:
        item
          .querySelector('[data-testid^="tree-leaf-status-"]')
          ?.getAttribute('data-testid')
          ?.slice('tree-leaf-status-'.length) ?? 'unknown',
      preview:
        item.querySelector('[data-testid="test-result-retries-item-error-preview"]')?.textContent ?? null,
    })),
  );
}

export interface AttachmentView {
  /** The attachment id (`data-tr-focus-id` of its header): `data/attachments/<id><ext>`. */
  id: string;
  name: string;
  mediaType: string | null;
  missed: boolean;
}

/**
 * The attachments tab rows. The row's title is the fourth child of its toggle (arrow, icon,
 * index, name); the meta block lists the content type, when known, before the size.
 */
export function readAttachments(page: Page): Promise<AttachmentView[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="test-result-attachment-header"]')].map((header) => {
      const toggle = header.firstElementChild?.tagName === 'BUTTON' ? header.firstElementChild : header;
      const meta = header.lastElementChild?.firstElementChild;
      const texts = [...(meta?.children ?? [])]
        .filter((c) => c.tagName === 'SPAN')
        .map((c) => c.textContent ?? '');
      return {
        id: header.getAttribute('data-tr-focus-id') ?? '',
        name: toggle.children[3]?.textContent ?? '',
        mediaType: texts.length >= 2 ? (texts[0] ?? null) : null,
        missed: header.querySelector('[data-testid="test-result-attachment-missed"]') !== null,
      };
    }),
  );
}
