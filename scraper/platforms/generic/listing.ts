import type { Locator, Page } from 'playwright-core';
import type { GenericPlatformConfig } from './config.ts';
import { all, hrefOf, openPage, textOf } from './dom.ts';
import { readEnvironment } from './environment.ts';
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
  environment: Array<{ name: string; value: string }>;
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
  const warnings: string[] = [];
  const categories: Category[] = [];
  const rows = await all(page, summary.row);
  if (rows.length === 0) warnings.push(`summary ${url}: no row matches "${summary.row}"`);
  for (const [index, row] of rows.entries()) {
    const category = await readCategoryRow(row, page.url(), config, warnings, index);
    if (category !== null && category.failed !== 0) categories.push(category);
  }
  const environment = await readEnvironment(page, summary.environment, warnings, `summary ${url}`);
  return { categories, environment, warnings };
}

async function readCategoryRow(
  row: Locator,
  base: string,
  config: GenericPlatformConfig,
  warnings: string[],
  index: number,
): Promise<Category | null> {
  const { summary } = config;
  const url = await hrefOf(row, summary.link, base);
  if (url === null) {
    warnings.push(`summary row ${index + 1}: no link "${summary.link}", row skipped`);
    return null;
  }
  const title = (summary.title && (await textOf(row, summary.title))) || (await textOf(row, summary.link)) || url;
  const failedText = summary.failed === undefined ? null : await textOf(row, summary.failed);
  const failed = failedText === null ? null : parseCount(failedText);
  if (summary.failed !== undefined && failed === null) {
    warnings.push(`summary row "${title}": no failure count in "${summary.failed}", visited anyway`);
  }
  return { title, url, failed };
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
      warnings.push(`category "${category.title}": stopped after ${list.maxPages} list pages (list.maxPages)`);
      break;
    }
    visited.add(url);
    await openPage(page, url, { timeoutMs, ready: list.ready });
    tests.push(...(await readListPage(page, { category, pageNo, config, warnings })));
    url = list.next === undefined ? null : await hrefOf(page, list.next, page.url());
    if (url !== null && visited.has(url)) url = null;
  }
  if (category.failed !== null && category.failed !== tests.length) {
    warnings.push(`category "${category.title}": summary shows ${category.failed} failures, list has ${tests.length}`);
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
  const tests: ListedTest[] = [];
  for (const [index, row] of (await all(page, at.config.list.row)).entries()) {
    const test = await readTestRow(row, page.url(), at, `page ${at.pageNo} row ${index + 1}`);
    if (test !== null) tests.push(test);
  }
  return tests;
}

/** A failure row, or null for rows whose status is not a failure (passed, skipped, headers). */
async function readTestRow(row: Locator, base: string, at: ListPage, where: string): Promise<ListedTest | null> {
  const { list, statusMap } = at.config;
  const title = at.category.title;
  const shownStatus = list.status === undefined ? null : await textOf(row, list.status);
  if (shownStatus !== null && !new RegExp(list.failedStatus, 'i').test(shownStatus)) return null;
  const url = await hrefOf(row, list.link, base);
  const name = (list.name && (await textOf(row, list.name))) || (await textOf(row, list.link));
  if (url === null) {
    if (shownStatus !== null) at.warnings.push(`list ${where} of "${title}": failure "${name}" has no link, skipped`);
    return null;
  }
  const warnings: string[] = [];
  if (list.status !== undefined && shownStatus === null) {
    warnings.push(`list ${where} of "${title}" shows no status ("${list.status}")`);
  }
  const status = shownStatus === null ? null : normaliseStatus(shownStatus, statusMap);
  const label = (list.label && (await textOf(row, list.label))) || where;
  return { name: name || url, status, url, reachedBy: [title, label], category: title, warnings };
}
