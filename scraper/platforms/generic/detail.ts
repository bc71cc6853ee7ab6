import type { Page } from 'playwright-core';
import { emptyFailure, type RawFailure } from '../../raw.ts';
import type { GenericPlatformConfig } from './config.ts';
import { all, openPage, textOf } from './dom.ts';
import { type EnvironmentFact, readEnvironment } from './environment.ts';
import type { ListedTest } from './listing.ts';
import { readLogs } from './logs.ts';
import { normaliseStatus, parseDuration } from './parse.ts';

export interface DetailRead {
  failure: RawFailure;
  environment: EnvironmentFact[];
}

/** Reads a level-3 page; a configured field the page does not show is null plus a warning. */
export async function readDetail(
  page: Page,
  test: ListedTest,
  config: GenericPlatformConfig,
  timeoutMs: number,
): Promise<DetailRead> {
  const { detail } = config;
  await openPage(page, test.url, { timeoutMs, ready: detail.ready });
  const warnings = [...test.warnings];
  const field = async (label: string, selector: string | undefined): Promise<string | null> => {
    if (selector === undefined) return null;
    const value = await textOf(page, selector);
    if (value === null) warnings.push(`${label} not shown on ${test.url} ("${selector}")`);
    return value;
  };
  const name = (await field('name', detail.name)) || test.name;
  const fullName = await field('full name', detail.fullName);
  const shownStatus = await field('status', detail.status);
  const message = await field('message', detail.message);
  const trace = await field('stack trace', detail.trace);
  const duration = readDuration(await field('duration', detail.duration), config, warnings);
  const parameters = await readParameters(page, config);
  const environment = await readEnvironment(page, detail.environment, warnings, `detail ${test.url}`);
  const attachments = await readLogs(page, detail.logs, timeoutMs, warnings);
  const failure: RawFailure = {
    ...listedFailure(test, config),
    name,
    full_name: fullName || null,
    key: fullName || [...test.reachedBy, name].join(' / '),
    status: shownStatus ? normaliseStatus(shownStatus, config.statusMap) : (test.status ?? 'unknown'),
    message: message || null,
    trace: trace || null,
    duration_ms: duration,
    parameters,
    attachments,
    // Read after unfolding, so the kept page shows the logs as an engineer would see them.
    source: { kind: 'page_html', text: await page.content() },
    warnings,
  };
  return { failure, environment };
}

/** What level 2 alone tells: the failure emitted when the detail page cannot be read. */
export function listedFailure(test: ListedTest, config: GenericPlatformConfig, error?: string): RawFailure {
  const failure = emptyFailure({
    name: test.name,
    key: [...test.reachedBy, test.name].join(' / '),
    status: test.status ?? 'unknown',
    url: test.url,
  });
  const warnings = [...test.warnings];
  if (error !== undefined) warnings.push(`detail page ${test.url} of "${config.name}" could not be read: ${error}`);
  return { ...failure, reached_by: [...test.reachedBy], report_category: test.category, warnings };
}

function readDuration(shown: string | null, config: GenericPlatformConfig, warnings: string[]): number | null {
  if (shown === null) return null;
  const ms = parseDuration(shown, config.detail.durationUnit);
  if (ms === null) warnings.push(`duration "${shown}" is not a duration`);
  return ms;
}

async function readParameters(
  page: Page,
  config: GenericPlatformConfig,
): Promise<Array<{ name: string; value: string }>> {
  const table = config.detail.parameters;
  if (table === undefined) return [];
  const parameters: Array<{ name: string; value: string }> = [];
  for (const row of await all(page, table.row)) {
    const name = await textOf(row, table.name);
    if (name !== null && name !== '') parameters.push({ name, value: (await textOf(row, table.value)) ?? '' });
  }
  return parameters;
}
