import { DiagnosisError } from '../../../src/errors/index.ts';
import { emptyFailure, type RawAttachment, type RawFailure } from '../../raw.ts';
import { charsetOf } from '../../text/index.ts';
import { emitFailures } from '../pages.ts';
import type { ScrapeContext, ScrapeSummary } from '../types.ts';
import { openReportFiles, type ReportFiles } from './files.ts';
import { type FailureRef, level3Url, refsFromTree, unreadableFailure } from './listing.ts';
import { passedKeys } from './passed.ts';
import {
  type Attachment,
  CategoriesTree,
  EnvironmentWidget,
  ExecutorsWidget,
  type Step,
  TestCase,
} from './schema.ts';

/** Data mode: the report's JSON files, read over HTTP or from disk — the "platform interface" route. */
export async function scrapeAllure2Data(ctx: ScrapeContext): Promise<ScrapeSummary> {
  const files = await openReportFiles(ctx.source);
  const tree = await files.json('data/categories.json', CategoriesTree);
  const refs = refsFromTree(tree);
  await assertHasTests(files, ctx, refs.length);
  const warnings = await emitFailures(
    ctx,
    refs,
    // Small JSON files: several per page slot cost the server little.
    { concurrency: ctx.limits.concurrency * 8, label: (ref) => ref.testName },
    (ref) => readFailure(files, ctx, ref),
    (ref, error) => unreadableFailure(ctx.source.displayUrl, ref, error),
  );
  const passed = await passedKeys(files, ctx);
  return {
    environment: await readEnvironment(files),
    warnings: [...warnings, ...passed.warnings],
    mode: 'data',
    failures: refs.length,
    passed: passed.keys,
  };
}

async function assertHasTests(files: ReportFiles, ctx: ScrapeContext, failures: number): Promise<void> {
  if (failures > 0) return;
  const summary = await files.bytes('widgets/summary.json');
  const total =
    summary === null ? 0 : Number(JSON.parse(summary.body.toString('utf8'))?.statistic?.total ?? 0);
  if (total === 0) {
    throw new DiagnosisError('EMPTY_REPORT', `report ${ctx.input} contains no test results`, {
      input: ctx.input,
    });
  }
}

async function readFailure(files: ReportFiles, ctx: ScrapeContext, ref: FailureRef): Promise<RawFailure> {
  const { value: testCase, text } = await files.jsonWithText(`data/test-cases/${ref.testUid}.json`, TestCase);
  const failure = toRawFailure(testCase, ctx, ref);
  failure.attachments = await Promise.all(collectAttachments(testCase).map((a) => readAttachment(files, a)));
  failure.source = { kind: 'page_data', text };
  return failure;
}

export function toRawFailure(testCase: TestCase, ctx: ScrapeContext, ref: FailureRef): RawFailure {
  return {
    ...emptyFailure({
      name: testCase.name,
      key: testCase.historyId ?? testCase.fullName ?? testCase.name,
      status: testCase.status,
      url: level3Url(ctx.source.displayUrl, ref),
    }),
    full_name: testCase.fullName ?? null,
    reached_by: [ref.category, ref.group],
    report_category: ref.category,
    message: testCase.statusMessage ?? null,
    trace: testCase.statusTrace ?? null,
    steps: flattenSteps(testCase.testStage?.steps ?? [], 0),
    parameters: testCase.parameters.map((p) => ({ name: p.name, value: p.value ?? '' })),
    retries: testCase.extra.retries.map((r) => ({ status: r.status, message: r.statusDetails ?? null })),
    flaky: testCase.flaky,
  };
}

/**
 * The steps as the UI shows them: an attachment recorded as a step is an attachment, not a
 * step, and a step's message is shown only where Allure flags it (the failing leaf, not each
 * parent repeating it).
 */
function flattenSteps(steps: readonly Step[], depth: number): RawFailure['steps'] {
  return steps.flatMap((step) =>
    step.attachmentStep
      ? []
      : [
          {
            name: step.name ?? '',
            status: step.status ?? null,
            depth,
            message: step.shouldDisplayMessage ? (step.statusMessage ?? null) : null,
          },
          ...flattenSteps(step.steps ?? [], depth + 1),
        ],
  );
}

function collectAttachments(testCase: TestCase): Attachment[] {
  const fromSteps = (steps: readonly Step[]): Attachment[] =>
    steps.flatMap((s) => [...(s.attachments ?? []), ...fromSteps(s.steps ?? [])]);
  const stage = testCase.testStage;
  return stage ? [...stage.attachments, ...fromSteps(stage.steps)] : [];
}

async function readAttachment(files: ReportFiles, attachment: Attachment): Promise<RawAttachment> {
  const base = { name: attachment.name ?? attachment.source, media_type: attachment.type ?? null };
  const got = await files.bytes(`data/attachments/${attachment.source}`);
  if (got === null) return { ...base, body: null, error: `data/attachments/${attachment.source} is missing` };
  const charset = charsetOf(got.contentType);
  return { ...base, body: got.body, ...(charset ? { declared_charset: charset } : {}) };
}

async function readEnvironment(files: ReportFiles): Promise<ScrapeSummary['environment']> {
  const env = (await files.tryJson('widgets/environment.json', EnvironmentWidget)) ?? [];
  const executors = (await files.tryJson('widgets/executors.json', ExecutorsWidget)) ?? [];
  return [
    ...env.map((e) => ({ name: e.name, value: e.values.join(', ') })),
    // Only what the Overview page shows too, so DOM and data modes agree.
    ...executors.flatMap((e) =>
      [
        ['executor', e.name],
        ['build', e.buildName],
        ['build.url', e.buildUrl],
      ].flatMap(([name, value]) => (value ? [{ name: name as string, value }] : [])),
    ),
  ];
}
