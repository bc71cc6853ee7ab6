import type { Page } from 'playwright-core';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { type GenericPlatformConfig, selectorsOf } from './config.ts';
import { extractPage, extractRows, invalidSelectors, openPage, type Row } from './dom.ts';
import { type EnvironmentFact, environmentFields, readEnvironment } from './environment.ts';
import { normaliseStatus, parseCount } from './parse.ts';

/** Level 1 row: a suite or category of the summary page. */
export interface Category {
  title: string;
  url: string;
  /** Failures the summary claims, to check the list against; null when not shown. */
  failed: number | null;
}

/** Level 2 row that is a failure: what the list page tells before the detail is read. */
export interface ListedTest {
  name: string;
  status: string | null;
  url: string;
  /** [level-1 title, level-2 label]. */
  reachedBy: [string, string];
  category: string;
  warnings: string[];
}

export interface SummaryPage {
  categories: Category[];
  environment: EnvironmentFact[];
  warnings: string[];
}

/** Reads level 1; rows whose count says 0 failures are left out, they have nothing to list. */
export async function readSummary(
  page: Page,
  url: string,
  config: GenericPlatformConfig,
  timeoutMs: number,
): Promise<SummaryPage> {
  const { summary } = config;
  await openPage(page, url, { timeoutMs, ready: summary.ready });
  await checkSelectors(page, config);
  const warnings: string[] = [];
  const rows = await extractRows(page, summary.row, {
    title: summary.title === undefined ? undefined : { css: summary.title, take: 'text' },
    linkText: { css: summary.link, take: 'text' },
    url: { css: summary.link, take: 'href' },
    failed: summary.failed === undefined ? undefined : { css: summary.failed, take: 'text' },
  });
  if (rows.length === 0) warnings.push(`summary ${url}: no row matches "${summary.row}"`);
  const categories = rows
    .map((row, index) => toCategory(row, index, config, warnings))
    .filter((c): c is Category => c !== null && c.failed !== 0);
  const shown = await extractPage(page, environmentFields(summary.environment));
  const environment = readEnvironment(shown, summary.environment, warnings, `summary ${url}`);
  return { categories, environment, warnings };
}

/** A selector the browser rejects is a config error: it would read as "missing" on every page. */
async function checkSelectors(page: Page, config: GenericPlatformConfig): Promise<void> {
  const bad = await invalidSelectors(page, selectorsOf(config));
  if (bad.length > 0) {
    throw new DiagnosisError(
      'PLATFORM_CONFIG_INVALID',
      `platform config "${config.name}" is invalid: ${bad.join('; ')}`,
      {
        input: config.name,
      },
    );
  }
}

function toCategory(
  row: Row,
  index: number,
  config: GenericPlatformConfig,
  warnings: string[],
): Category | null {
  const { summary } = config;
  if (row.url === null) {
    warnings.push(`summary row ${index + 1}: no link "${summary.link}", row skipped`);
    return null;
  }
  const title = row.title || row.linkText || row.url;
  const failed = row.failed === null ? null : parseCount(row.failed);
  if (summary.failed !== undefined && failed === null) {
    warnings.push(`summary row "${title}": no failure count in "${summary.failed}", visited anyway`);
  }
  return { title, url: row.url, failed };
}

/** Reads every list page of one category, following "next" up to `maxPages`. */
export async function readCategory(
  page: Page,
  category: Category,
  config: GenericPlatformConfig,
  timeoutMs: number,
): Promise<{ tests: ListedTest[]; warnings: string[] }> {
  const { list } = config;
  const tests: ListedTest[] = [];
  const warnings: string[] = [];
  const visited = new Set<string>();
  let url: string | null = category.url;
  for (let pageNo = 1; url !== null; pageNo++) {
    if (pageNo > list.maxPages) {
      warnings.push(
        `category "${category.title}": stopped after ${list.maxPages} list pages (list.maxPages)`,
      );
      break;
    }
    visited.add(url);
    await openPage(page, url, { timeoutMs, ready: list.ready });
    tests.push(...(await readListPage(page, { category, pageNo, config, warnings })));
    url =
      list.next === undefined
        ? null
        : ((await extractPage(page, { next: { css: list.next, take: 'href' } })).next ?? null);
    if (url !== null && visited.has(url)) url = null;
  }
  if (category.failed !== null && category.failed !== tests.length) {
    warnings.push(
      `category "${category.title}": summary shows ${category.failed} failures, list has ${tests.length}`,
    );
  }
  return { tests, warnings };
}

interface ListPage {
  category: Category;
  pageNo: number;
  config: GenericPlatformConfig;
  /** Category-level warnings (rows that cannot become a failure). */
  warnings: string[];
}

async function readListPage(page: Page, at: ListPage): Promise<ListedTest[]> {
  const { list } = at.config;
  const text = (css: string | undefined) => (css === undefined ? undefined : { css, take: 'text' as const });
  const rows = await extractRows(page, list.row, {
    name: text(list.name),
    linkText: text(list.link),
    url: { css: list.link, take: 'href' },
    status: text(list.status),
    label: text(list.label),
  });
  return rows
    .map((row, index) => toListedTest(row, at, `page ${at.pageNo} row ${index + 1}`))
    .filter((t): t is ListedTest => t !== null);
}

/** A failure row, or null for rows whose status is not a failure (passed, skipped). */
function toListedTest(row: Row, at: ListPage, where: string): ListedTest | null {
  const { list, statusMap } = at.config;
  const title = at.category.title;
  if (row.status !== null && !new RegExp(list.failedStatus, 'i').test(row.status)) return null;
  const name = row.name || row.linkText || row.url;
  if (row.url === null) {
    if (row.status !== null)
      at.warnings.push(`list ${where} of "${title}": failure "${name}" has no link, skipped`);
    return null;
  }
  const warnings: string[] = [];
  if (list.status !== undefined && row.status === null) {
    warnings.push(`list ${where} of "${title}" shows no status ("${list.status}")`);
  }
  const status = row.status === null ? null : normaliseStatus(row.status, statusMap);
  return {
    name: name || row.url,
    status,
    url: row.url,
    reachedBy: [title, row.label || where],
    category: title,
    warnings,
  };
}
