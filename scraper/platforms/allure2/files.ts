import type { z } from 'zod';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { type Fetched, parseDataFile, type ReportSource } from '../../source/index.ts';

/**
 * Reads an Allure 2 report's data files, whether they sit beside index.html or are embedded in
 * a `--single-file` report as `d('data/…','<base64>')` calls.
 */
export interface ReportFiles {
  json<T>(path: string, schema: z.ZodType<T>): Promise<T>;
  tryJson<T>(path: string, schema: z.ZodType<T>): Promise<T | null>;
  /** The parsed file and its text, read once (the text is kept as evidence). */
  jsonWithText<T>(path: string, schema: z.ZodType<T>): Promise<{ value: T; text: string }>;
  bytes(path: string): Promise<Fetched | null>;
  readonly singleFile: boolean;
}

const EMBEDDED = /d\('([^']+)','([A-Za-z0-9+/=]*)'\)/g;

export async function openReportFiles(source: ReportSource): Promise<ReportFiles> {
  const direct = await source.tryGet('data/categories.json');
  if (direct !== null) return filesOf(source, null);
  const index = await source.tryGet('index.html');
  const embedded = new Map<string, Buffer>();
  for (const match of index?.body.toString('utf8').matchAll(EMBEDDED) ?? []) {
    embedded.set(match[1] as string, Buffer.from(match[2] as string, 'base64'));
  }
  return filesOf(source, embedded.size > 0 ? embedded : null);
}

function filesOf(source: ReportSource, embedded: Map<string, Buffer> | null): ReportFiles {
  const bytes = async (path: string): Promise<Fetched | null> => {
    if (embedded === null) return source.tryGet(path);
    const body = embedded.get(path);
    return body === undefined ? null : { body, contentType: null };
  };
  const tryJsonWithText = async <T>(
    path: string,
    schema: z.ZodType<T>,
  ): Promise<{ value: T; text: string } | null> => {
    const got = await bytes(path);
    if (got === null) return null;
    const text = got.body.toString('utf8');
    const where = `${source.rootUrl}${path}`;
    return {
      value: parseDataFile(text, schema, { where, input: source.displayUrl, what: 'an Allure 2 data file' }),
      text,
    };
  };
  const jsonWithText = async <T>(path: string, schema: z.ZodType<T>): Promise<{ value: T; text: string }> => {
    const got = await tryJsonWithText(path, schema);
    if (got === null) {
      throw new DiagnosisError('MALFORMED_REPORT', `${source.rootUrl}${path} is missing from the report`, {
        input: source.displayUrl,
      });
    }
    return got;
  };
  return {
    singleFile: embedded !== null,
    bytes,
    jsonWithText,
    tryJson: async (path, schema) => (await tryJsonWithText(path, schema))?.value ?? null,
    json: async (path, schema) => (await jsonWithText(path, schema)).value,
  };
}
