import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../../../src/errors/index.ts';

/**
 * A generic three-level report platform (summary → list → detail), described by selectors
 * instead of code, so an internal CI site can be scraped by writing one JSON file.
 * Selectors are CSS (what `document.querySelector` takes); row fields are read inside their
 * row, and `:scope` is the row itself. Objects are strict: a misspelt key is reported instead of
 * silently ignored, since a typo would otherwise read as "field missing" on every page.
 */

const Selector = z.string().trim().min(1);

/** A JavaScript regular expression source, compiled case-insensitively. */
const Pattern = z.string().refine(isRegExp, { error: 'is not a valid regular expression' });

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'i');
    return true;
  } catch (err: unknown) {
    if (err instanceof SyntaxError) return false;
    throw err;
  }
}

const EnvironmentField = z.strictObject({
  /** Name of the environment fact, e.g. "os" or "python". */
  name: z.string().min(1),
  selector: Selector,
});

/** The page is ready when this selector is attached; for sites that render with JavaScript. */
const Ready = Selector.optional();

const Summary = z.strictObject({
  /** Path of the summary page relative to the report root. */
  path: z.string().default('index.html'),
  ready: Ready,
  /** One row per suite/category. */
  row: Selector,
  /** Title of the row; the link text is used when absent. */
  title: Selector.optional(),
  /** Link to the category's list page. */
  link: Selector,
  /** Failure count of the row: a row showing 0 is not visited. */
  failed: Selector.optional(),
  environment: z.array(EnvironmentField).default([]),
});

const List = z.strictObject({
  ready: Ready,
  /** One row per test. */
  row: Selector,
  name: Selector.optional(),
  status: Selector.optional(),
  /** Link to the test's detail page. */
  link: Selector,
  /** Label of the row for `reached_by`; "page N row R" when absent. */
  label: Selector.optional(),
  /** Rows whose status text matches are failures; rows without a status are kept. */
  failedStatus: Pattern.default('fail|error|broken|timeout|crash'),
  /** Link to the next list page; pagination stops when it is absent or has no href. */
  next: Selector.optional(),
  /** Bound on list pages per category, against endless or cyclic pagination. */
  maxPages: z.number().int().positive().default(50),
});

const Table = z.strictObject({
  row: Selector,
  name: Selector,
  value: Selector,
});

/** A log folded behind a toggle: clicked, then the revealed content is read. */
const FoldedLog = z.strictObject({
  name: z.string().min(1),
  toggle: Selector,
  content: Selector,
});

/** Links to log files or attachments: every match is fetched as raw bytes. */
const LinkedLog = z.strictObject({
  /** Attachment name; the link text (or the file name of the URL) when absent. */
  name: z.string().min(1).optional(),
  link: Selector,
});

const Detail = z.strictObject({
  ready: Ready,
  name: Selector.optional(),
  fullName: Selector.optional(),
  status: Selector.optional(),
  message: Selector.optional(),
  trace: Selector.optional(),
  duration: Selector.optional(),
  /** Unit of a duration shown as a bare number. */
  durationUnit: z.enum(['ms', 's']).default('s'),
  parameters: Table.optional(),
  environment: z.array(EnvironmentField).default([]),
  logs: z.array(z.union([FoldedLog, LinkedLog])).default([]),
});

const Match = z
  .strictObject({
    /** Report URL patterns (root or display URL). */
    url: z.union([Pattern, z.array(Pattern).min(1)]).optional(),
    /** Pattern the summary page's HTML must contain. */
    marker: Pattern.optional(),
  })
  .refine((m) => m.url !== undefined || m.marker !== undefined, {
    error: 'needs "url" or "marker", or detect would claim every report',
  });

export const GenericPlatformConfig = z.strictObject({
  name: z.string().min(1),
  match: Match,
  /** Shown status text (lower-cased) → status in the facts, e.g. {"error": "broken"}. */
  statusMap: z.record(z.string(), z.string()).default({}),
  summary: Summary,
  list: List,
  detail: Detail.default({ durationUnit: 's', environment: [], logs: [] }),
});
export type GenericPlatformConfig = z.infer<typeof GenericPlatformConfig>;
export type FoldedLog = z.infer<typeof FoldedLog>;
export type LinkedLog = z.infer<typeof LinkedLog>;
export type EnvironmentField = z.infer<typeof EnvironmentField>;

/** Validates a config already in memory; `origin` names it in error messages. */
export function parsePlatformConfig(value: unknown, origin: string): GenericPlatformConfig {
  const parsed = GenericPlatformConfig.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new DiagnosisError(
    'PLATFORM_CONFIG_INVALID',
    `platform config ${origin} is invalid: ${parsed.error.issues.map((issue) => describeIssue(issue)).join('; ')}`,
    { input: origin, cause: parsed.error },
  );
}

/** Reads and validates a platform config file (JSON). */
export async function loadPlatformConfig(path: string): Promise<GenericPlatformConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err: unknown) {
    throw invalid(path, `cannot be read (${describeError(err)})`, err);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err: unknown) {
    throw invalid(path, `is not valid JSON (${describeError(err)})`, err);
  }
  return parsePlatformConfig(value, path);
}

function invalid(path: string, problem: string, cause: unknown): DiagnosisError {
  return new DiagnosisError('PLATFORM_CONFIG_INVALID', `platform config ${path} ${problem}`, {
    input: path,
    cause,
  });
}

/** `field "list.row": …`, naming unknown keys themselves rather than their parent. */
function describeIssue(issue: z.core.$ZodIssue, under: readonly PropertyKey[] = []): string {
  const at = [...under, ...issue.path].map(String);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `field "${[...at, key].join('.')}": unknown field`).join('; ');
  }
  if (issue.code === 'invalid_union') {
    // The branch that came closest says what is wrong ("detail.logs.0.content" missing), where
    // the union itself only says "Invalid input".
    const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0];
    if (closest !== undefined && closest.length > 0)
      return closest.map((i) => describeIssue(i, at)).join('; ');
  }
  const where = at.length === 0 ? '(root)' : at.join('.');
  return `field "${where}": ${issue.message}`;
}

/** Every selector of the config with its path, so the browser can check them all once. */
export function selectorsOf(config: GenericPlatformConfig): Array<[string, string]> {
  const { summary, list, detail } = config;
  const found: Array<[string, string | undefined]> = [
    ...section('summary', summary, ['ready', 'row', 'title', 'link', 'failed']),
    ...summary.environment.map((e, i): [string, string] => [`summary.environment.${i}.selector`, e.selector]),
    ...section('list', list, ['ready', 'row', 'name', 'status', 'link', 'label', 'next']),
    ...section('detail', detail, ['ready', 'name', 'fullName', 'status', 'message', 'trace', 'duration']),
    ...(detail.parameters ? section('detail.parameters', detail.parameters, ['row', 'name', 'value']) : []),
    ...detail.environment.map((e, i): [string, string] => [`detail.environment.${i}.selector`, e.selector]),
    ...detail.logs.flatMap((log, i) =>
      'toggle' in log
        ? section(`detail.logs.${i}`, log, ['toggle', 'content'])
        : section(`detail.logs.${i}`, log, ['link']),
    ),
  ];
  return found.filter((entry): entry is [string, string] => entry[1] !== undefined);
}

function section<T extends object>(
  path: string,
  value: T,
  keys: Array<keyof T & string>,
): Array<[string, string | undefined]> {
  return keys.map((key) => [`${path}.${key}`, value[key] as string | undefined]);
}
