import { emptyFailure, type RawAttachment, type RawFailure } from '../../raw.ts';
import type { ReportSource } from '../../source/report-source.ts';
import { emitFailures } from '../pages.ts';
import type { ScrapeContext, ScrapeSummary } from '../types.ts';
import {
  assertHasTests,
  openReportData,
  PATHS,
  type ReportData,
  readAttachmentBody,
  readCategories,
  readEnvironment,
  readJson,
} from './files.ts';
import { type FailureRef, failuresInTree, level3Url } from './listing.ts';
import { passedKeys } from './passed.ts';
import { type AttachmentItem, TestResult } from './schema.ts';
import {
  attachmentName,
  failureKey,
  shownDiff,
  shownDuration,
  shownLabels,
  shownRetryMessage,
  shownSteps,
  shownText,
} from './shown.ts';

/** The error every mode gives an attachment whose file Allure could not find when generating. */
export const MISSED_ATTACHMENT = 'the attachment file was missing when the report was generated';

/** Data mode: the JSON files the Awesome UI itself loads, over HTTP or from disk. */
export async function scrapeAllure3Data(ctx: ScrapeContext): Promise<ScrapeSummary> {
  const data = await openReportData(ctx.source);
  const refs = failuresInTree(await readCategories(data, ctx.source, ctx.input));
  if (refs.length === 0) await assertHasTests(data, ctx.input);
  const warnings = await emitFailures(
    ctx,
    refs,
    // Small JSON files: several per page slot cost the server little.
    { concurrency: ctx.limits.concurrency * 8, label: (ref) => ref.title },
    (ref) => readFailure(data, ctx, ref),
    (ref, error) => unreadable(ctx, ref, error),
  );
  const passed = await passedKeys(data, ctx);
  return {
    environment: await readEnvironment(data, ctx.input),
    warnings: [...warnings, ...passed.warnings],
    mode: 'data',
    failures: refs.length,
    passed: passed.keys,
  };
}

async function readFailure(data: ReportData, ctx: ScrapeContext, ref: FailureRef): Promise<RawFailure> {
  const got = await readJson(data, PATHS.testResult(ref.id), TestResult, ctx.input);
  if (got === null) throw new Error(`${data.where(PATHS.testResult(ref.id))} is missing from the report`);
  const failure = toRawFailure(got.value, ctx.source, ref);
  failure.attachments = await Promise.all(got.value.attachments.map((a) => readAttachment(data, a)));
  failure.source = { kind: 'page_data', text: got.text };
  return failure;
}

/** A test result as its level-3 page shows it (see shown.ts for each rule). */
export function toRawFailure(result: TestResult, source: ReportSource, ref: FailureRef): RawFailure {
  const fullName = result.fullName ?? null;
  const parameters = result.parameters.map((p) => ({ name: p.name, value: p.value }));
  const diff = shownDiff(result.error);
  return {
    ...emptyFailure({
      name: result.name,
      key: failureKey(fullName, result.name, parameters),
      status: result.status,
      url: level3Url(source.displayUrl, result.id),
    }),
    full_name: fullName,
    reached_by: ref.reachedBy,
    report_category: ref.category,
    message: shownText(result.error?.message),
    trace: shownText(result.error?.trace),
    expected: diff?.expected ?? null,
    actual: diff?.actual ?? null,
    steps: shownSteps(result),
    parameters,
    labels: shownLabels(result),
    retries: result.retries.map((r) => ({ status: r.status, message: shownRetryMessage(r.error) })),
    flaky: result.flaky,
    duration_ms: shownDuration(result.duration),
  };
}

async function readAttachment(data: ReportData, item: AttachmentItem): Promise<RawAttachment> {
  const { link } = item;
  const base = { name: attachmentName(link), media_type: link.contentType ?? null };
  if (link.missed || link.id === undefined) return { ...base, body: null, error: MISSED_ATTACHMENT };
  return readAttachmentBody(data, base, PATHS.attachment(link.id, link.ext));
}

export function unreadable(ctx: ScrapeContext, ref: FailureRef, error: string): RawFailure {
  return {
    ...emptyFailure({
      name: ref.title,
      key: ref.id,
      status: 'unknown',
      url: level3Url(ctx.source.displayUrl, ref.id),
    }),
    reached_by: ref.reachedBy,
    report_category: ref.category,
    warnings: [`level-3 page could not be read: ${error}`],
  };
}
