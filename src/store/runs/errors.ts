import type { z } from 'zod';
import { DiagnosisError } from '../../errors/index.ts';

/**
 * complete/fail on a job this worker no longer holds: its lease expired and another worker
 * claimed the stage, or the job already ended. The result is not recorded; the holder's will be.
 */
export class LeaseLostError extends DiagnosisError {
  readonly jobId: string;

  constructor(jobId: string, why: string) {
    super('STORE_ERROR', `job ${jobId} is no longer held by this worker: ${why}`, { input: jobId });
    this.name = 'LeaseLostError';
    this.jobId = jobId;
  }
}

/** Bad input from a caller: INVALID_ARGUMENT naming what was wrong. */
export function invalid(input: string, message: string): DiagnosisError {
  return new DiagnosisError('INVALID_ARGUMENT', message, { input });
}

/** Parses a caller's value; an error names the input and the first bad field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  throw invalid(what, `${what} is invalid${field}: ${issue?.message ?? 'unknown problem'}`);
}
