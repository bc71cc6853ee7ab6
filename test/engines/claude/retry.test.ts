import {
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isTransient, retryDelay, withRetry } from '../../../src/engines/claude/index.ts';

function rateLimited(headers: Record<string, string> = {}) {
  return new RateLimitError(
    429,
    { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    undefined,
    new Headers(headers),
  );
}

const overloaded = () =>
  new InternalServerError(
    529,
    { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    undefined,
    new Headers(),
  );

describe('retry policy', () => {
  it.each([
    ['429', true, rateLimited()],
    ['529', true, overloaded()],
    ['a timeout', true, new APIConnectionTimeoutError()],
    ['400', false, new BadRequestError(400, undefined, 'bad', new Headers())],
    ['a 429 the API says not to retry', false, rateLimited({ 'x-should-retry': 'false' })],
  ])('%s is transient: %s', (_, expected, err) => {
    expect(isTransient(err)).toBe(expected);
  });

  it('waits what the API asks, capped, else backs off exponentially with jitter', () => {
    expect(retryDelay(rateLimited({ 'retry-after-ms': '250' }), 1, DEFAULT_RETRY, () => 0)).toBe(250);
    expect(retryDelay(rateLimited({ 'retry-after': '3' }), 1, DEFAULT_RETRY, () => 0)).toBe(3_000);
    expect(retryDelay(rateLimited({ 'retry-after': '3600' }), 1, DEFAULT_RETRY, () => 0)).toBe(
      DEFAULT_RETRY.maxDelayMs,
    );
    expect([1, 2, 3, 6].map((n) => retryDelay(overloaded(), n, DEFAULT_RETRY, () => 0))).toEqual([
      1_000, 2_000, 4_000, 16_000,
    ]);
    expect(retryDelay(overloaded(), 1, DEFAULT_RETRY, () => 0.999)).toBeGreaterThanOrEqual(750);
  });

  it('does not start a retry the wall-time budget cannot wait for', async () => {
    const failing = async () => {
      throw overloaded();
    };

    const attempt = withRetry(failing, {
      policy: DEFAULT_RETRY,
      sleep: async () => {},
      random: () => 0,
      remainingMs: () => 500,
      onRetry: () => {},
    });

    await expect(attempt).rejects.toMatchObject({
      code: 'MODEL_ERROR',
      message: expect.stringContaining('no wall time'),
    });
  });

  it('passes aborts and non-API errors through untouched', async () => {
    const deps = {
      policy: DEFAULT_RETRY,
      sleep: async () => {},
      random: () => 0,
      remainingMs: () => 1e9,
      onRetry: () => {},
    };
    const abort = new APIUserAbortError();
    const bug = new TypeError('undefined is not a function');

    await expect(withRetry(async () => Promise.reject(abort), deps)).rejects.toBe(abort);
    await expect(withRetry(async () => Promise.reject(bug), deps)).rejects.toBe(bug);
  });
});
