import { AnthropicError, APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { DiagnosisError } from '../../errors/index.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Delay before the second attempt; doubled for each further one, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1_000, maxDelayMs: 16_000 };

export interface RetryDeps {
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  /** In [0, 1): jitter, so parallel failures do not retry in lockstep. */
  random: () => number;
  /** Wall time left for this failure; no retry is started that would outlive it. */
  remainingMs: () => number;
  onRetry: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/**
 * Calls `call` until it succeeds, retrying what the API documents as transient (429 rate limit,
 * 529 overloaded, other 5xx, 408/409, timeouts and dropped connections;
 * https://docs.anthropic.com/en/api/errors) with exponential backoff, honouring `retry-after`.
 * When retries run out, or the error is not transient, the API failure becomes a
 * `DiagnosisError('MODEL_ERROR')` (cause kept) so the runner can fall back to the rules engine.
 * An abort (the wall-time budget) and errors that are not the API's pass through unchanged.
 */
export async function withRetry<T>(call: (attempt: number) => Promise<T>, deps: RetryDeps): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (err: unknown) {
      if (err instanceof APIUserAbortError || !(err instanceof AnthropicError)) throw err;
      if (!isTransient(err)) throw modelError(err, attempt, 'not retryable');
      if (attempt >= deps.policy.attempts) throw modelError(err, attempt, 'retries exhausted');
      const delayMs = retryDelay(err, attempt, deps.policy, deps.random);
      if (delayMs >= deps.remainingMs()) throw modelError(err, attempt, 'no wall time left for a retry');
      deps.onRetry({ attempt, delayMs, reason: describeApiError(err) });
      await deps.sleep(delayMs);
    }
  }
}

/** Transient by status, by the API's own `x-should-retry` verdict, or because the connection failed. */
export function isTransient(err: AnthropicError): boolean {
  if (err instanceof APIConnectionError) return true;
  if (!(err instanceof APIError)) return false;
  const verdict = err.headers?.get('x-should-retry');
  if (verdict === 'true') return true;
  if (verdict === 'false') return false;
  const status = err.status ?? 0;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server's `retry-after-ms`/`retry-after` when given (capped), else exponential backoff with jitter. */
export function retryDelay(
  err: AnthropicError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  const asked = err instanceof APIError ? retryAfterMs(err.headers) : null;
  if (asked !== null) return Math.min(asked, policy.maxDelayMs);
  const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(backoff * (1 - 0.25 * random()));
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const seconds = Number.parseFloat(headers?.get('retry-after') ?? '');
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  return null;
}

export function describeApiError(err: AnthropicError): string {
  if (err instanceof APIError && err.status !== undefined) {
    return `${err.status} ${err.type ?? 'error'}: ${err.apiMessage ?? err.message}`;
  }
  return err.message;
}

function modelError(err: AnthropicError, attempts: number, why: string): DiagnosisError {
  return new DiagnosisError(
    'MODEL_ERROR',
    `Messages API call failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (${why}): ${describeApiError(err)}`,
    { cause: err },
  );
}
