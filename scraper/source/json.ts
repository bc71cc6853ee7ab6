import { z } from 'zod';
import { DiagnosisError, describeError } from '../../src/errors/index.ts';

/**
 * Parses a report's JSON data file and checks it against the fields we use. Both failures are
 * MALFORMED_REPORT errors naming the file (`where`) and the report the user gave (`input`).
 */
export function parseDataFile<T>(
  text: string,
  schema: z.ZodType<T>,
  at: { where: string; input: string; what: string },
): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err: unknown) {
    throw new DiagnosisError('MALFORMED_REPORT', `${at.where} is not valid JSON: ${describeError(err)}`, {
      input: at.input,
      cause: err,
    });
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    throw new DiagnosisError(
      'MALFORMED_REPORT',
      `${at.where} does not look like ${at.what}: ${z.prettifyError(result.error)}`,
      { input: at.input, cause: result.error },
    );
  }
  return result.data;
}
