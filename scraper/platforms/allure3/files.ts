import type { z } from 'zod';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';
import type { RawAttachment } from '../../raw.ts';
import { type Fetched, parseDataFile, type ReportSource } from '../../source/index.ts';
import { charsetOf } from '../../text/index.ts';
import type { ScrapeSummary } from '../types.ts';
import { CategoriesWidget, EnvironmentWidget, SummaryFile, VariablesWidget } from './schema.ts';

/** Where the Awesome plugin writes what we read (plugin-awesome `writer.js`). */
export const PATHS = {
  categories: 'widgets/categories.json',
  environment: 'widgets/allure_environment.json',
  variables: 'widgets/variables.json',
  summary: 'summary.json',
  testResult: (id: string) => `data/test-results/${id}.json`,
  attachment: (id: string, ext: string | undefined) => `data/attachments/${id}${ext ?? ''}`,
} as const;

/**
 * The report's data files, read from beside index.html or, for a `singleFile: true` report,
 * from the `d("<path>","<base64>")` calls that embed them in index.html (plugin-awesome
 * `writer.js`, InMemoryReportDataWriter). Paths are relative to the report root.
 */
export interface ReportData {
  get(path: string): Promise<Fetched | null>;
  /** Where a path lives, for messages. */
  where(path: string): string;
  readonly singleFile: boolean;
}

const EMBEDDED = /\bd\("([^"]+)","([A-Za-z0-9+/=]*)"\)/g;

export async function openReportData(source: ReportSource): Promise<ReportData> {
  const where = (path: string) => new URL(path, source.rootUrl).href;
  // A file given by path (a single-file report's index.html) answers every path with itself.
  const isFile = !source.rootUrl.endsWith('/');
  if (!isFile && (await source.tryGet(PATHS.categories)) !== null) {
    return { get: (path) => source.tryGet(path), where, singleFile: false };
  }
  const index = await source.tryGet(isFile ? '' : 'index.html');
  const embedded = new Map<string, Buffer>();
  // The page's script, not the report: the embedding is a fixed generated call list.
  for (const match of index?.body.toString('utf8').matchAll(EMBEDDED) ?? []) {
    embedded.set(match[1] as string, Buffer.from(match[2] as string, 'base64'));
  }
  if (embedded.size === 0) {
    return { get: async (path) => (isFile ? null : source.tryGet(path)), where, singleFile: false };
  }
  return {
    get: async (path) => {
      const body = embedded.get(path);
      return body === undefined ? null : { body, contentType: null };
    },
    where: (path) => `${isFile ? source.rootUrl : where('index.html')} (embedded ${path})`,
    singleFile: true,
  };
}

/** A data file parsed and checked, with its text (kept as the failure's page_data evidence). */
export async function readJson<T>(
  data: ReportData,
  path: string,
  schema: z.ZodType<T>,
  input: string,
): Promise<{ value: T; text: string } | null> {
  const got = await data.get(path);
  if (got === null) return null;
  const text = got.body.toString('utf8');
  const value = parseDataFile(text, schema, {
    where: data.where(path),
    input,
    what: 'an Allure 3 data file',
  });
  return { value, text };
}

/**
 * Allure 3 writes `widgets/categories.json` as `{roots, nodes}`; Allure 2 (and Allure 3's
 * `allure2`/`classic` UIs) write the same path as `{total, items}` and add
 * `data/categories.json`, so the shape alone tells them apart.
 */
export async function isAllure3(source: ReportSource): Promise<boolean> {
  const got = await (await openReportData(source)).get(PATHS.categories);
  if (got === null) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(got.body.toString('utf8'));
  } catch (err: unknown) {
    if (err instanceof SyntaxError) return false;
    throw err;
  }
  return CategoriesWidget.safeParse(parsed).success;
}

/**
 * The #categories tree. Its absence or another shape means "not an Allure 3 report" (an
 * Allure 2 report has `{total, items}` at the same path); an address with nothing at all
 * behind it is a wrong input.
 */
export async function readCategories(
  data: ReportData,
  source: ReportSource,
  input: string,
): Promise<CategoriesWidget> {
  const got = await data.get(PATHS.categories);
  if (got === null) {
    const folder = source.rootUrl.endsWith('/');
    if (folder && !data.singleFile && (await source.tryGet('index.html')) === null) {
      throw new DiagnosisError('INPUT_NOT_FOUND', `${source.displayUrl} does not exist (404 Not Found)`, {
        input,
      });
    }
    if (!folder && source.rootUrl.endsWith('/index.html')) {
      // A multi-file report's page without its folder: the data sits beside it, out of reach.
      throw new DiagnosisError(
        'INVALID_ARGUMENT',
        `${input} is the page of a report whose data sits beside it: give the folder ${new URL('.', source.rootUrl).href} instead`,
        { input },
      );
    }
    throw new DiagnosisError(
      'NOT_A_REPORT',
      `${input} is not an Allure 3 report: ${data.where(PATHS.categories)} is missing`,
      {
        input,
      },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(got.body.toString('utf8'));
  } catch (err: unknown) {
    throw new DiagnosisError(
      'MALFORMED_REPORT',
      `${data.where(PATHS.categories)} is not valid JSON: ${describeError(err)}`,
      {
        input,
        cause: err,
      },
    );
  }
  const tree = CategoriesWidget.safeParse(parsed);
  if (!tree.success) {
    throw new DiagnosisError(
      'NOT_A_REPORT',
      `${input} is not an Allure 3 report: ${data.where(PATHS.categories)} has no roots/nodes tree (an Allure 2 report has items there)`,
      { input, cause: tree.error },
    );
  }
  return tree.data;
}

/** A report without failures is fine; one without any test is not worth diagnosing. */
export async function assertHasTests(data: ReportData, input: string): Promise<void> {
  const summary = await readJson(data, PATHS.summary, SummaryFile, input);
  if ((summary?.value.stats.total ?? 0) > 0) return;
  throw new DiagnosisError('EMPTY_REPORT', `Allure 3 report ${input} contains no test results`, { input });
}

/**
 * What the report states about where it ran: environment.properties of the results
 * (`allure_environment.json`) and allurerc `variables`.
 */
export async function readEnvironment(
  data: ReportData,
  input: string,
): Promise<ScrapeSummary['environment']> {
  const env = (await readJson(data, PATHS.environment, EnvironmentWidget, input))?.value ?? [];
  const variables = (await readJson(data, PATHS.variables, VariablesWidget, input))?.value ?? {};
  return [
    ...env.map((e) => ({ name: e.name, value: e.values.join(', ') })),
    ...Object.entries(variables).map(([name, value]) => ({ name, value })),
  ];
}

/** An attachment's bytes as served; a missing file is the attachment's error, not the run's. */
export async function readAttachmentBody(
  data: ReportData,
  base: Pick<RawAttachment, 'name' | 'media_type'>,
  path: string,
): Promise<RawAttachment> {
  let got: Fetched | null;
  try {
    got = await data.get(path);
  } catch (err: unknown) {
    return { ...base, body: null, error: `${path} could not be read: ${describeError(err)}` };
  }
  if (got === null) return { ...base, body: null, error: `${path} is missing from the report` };
  const charset = charsetOf(got.contentType);
  return { ...base, body: got.body, ...(charset ? { declared_charset: charset } : {}) };
}
