import type { Page } from 'playwright-core';
import { emptyFailure, type RawFailure } from '../../raw.ts';
import type { GenericPlatformConfig } from './config.ts';
import { extractPage, extractRows, type FieldSpec, openPage } from './dom.ts';
import { type EnvironmentFact, environmentFields, readEnvironment } from './environment.ts';
import type { ListedTest } from './listing.ts';
import { readLogs } from './logs.ts';
import { normaliseStatus, parseDuration } from './parse.ts';

export interface DetailRead {
  failure: RawFailure;
  environment: EnvironmentFact[];
}

const SCALARS = ['name', 'fullName', 'status', 'message', 'trace', 'duration'] as const;
type Scalar = (typeof SCALARS)[number];

const LABELS: Record<Scalar, string> = {
  name: 'name',
  fullName: 'full name',
  status: 'status',
  message: 'message',
  trace: 'stack trace',
  duration: 'duration',
};

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
  const shown = await readScalars(page, config, test.url, warnings);
  const env = await extractPage(page, environmentFields(detail.environment));
  const environment = readEnvironment(env, detail.environment, warnings, `detail ${test.url}`);
  const failure: RawFailure = {
    ...listedFailure(test, config),
    name: shown.name || test.name,
    full_name: shown.fullName || null,
    key: shown.fullName || [...test.reachedBy, shown.name || test.name].join(' / '),
    status: shown.status ? normaliseStatus(shown.status, config.statusMap) : (test.status ?? 'unknown'),
    message: shown.message || null,
    trace: shown.trace || null,
    duration_ms: readDuration(shown.duration, config, warnings),
    parameters: await readParameters(page, config),
    attachments: await readLogs(page, detail.logs, timeoutMs, warnings),
    warnings,
  };
  // Read after unfolding, so the kept page shows the logs as an engineer would see them.
  failure.source = { kind: 'page_html', text: await page.content() };
  return { failure, environment };
}

async function readScalars(
  page: Page,
  config: GenericPlatformConfig,
  url: string,
  warnings: string[],
): Promise<Record<Scalar, string | null>> {
  const { detail } = config;
  const spec = (css: string | undefined): FieldSpec | undefined =>
    css === undefined ? undefined : { css, take: 'text' };
  const shown = await extractPage(page, Object.fromEntries(SCALARS.map((k) => [k, spec(detail[k])])));
  for (const key of SCALARS) {
    if (detail[key] !== undefined && !shown[key]) {
      warnings.push(`${LABELS[key]} not shown on ${url} ("${detail[key]}")`);
    }
  }
  return shown as Record<Scalar, string | null>;
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
  if (error !== undefined)
    warnings.push(`detail page ${test.url} of "${config.name}" could not be read: ${error}`);
  return { ...failure, reached_by: [...test.reachedBy], report_category: test.category, warnings };
}

function readDuration(
  shown: string | null,
  config: GenericPlatformConfig,
  warnings: string[],
): number | null {
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
  const rows = await extractRows(page, table.row, {
    name: { css: table.name, take: 'text' },
    value: { css: table.value, take: 'text' },
  });
  return rows.flatMap((r) => (r.name ? [{ name: r.name, value: r.value ?? '' }] : []));
}
