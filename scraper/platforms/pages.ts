import pLimit from 'p-limit';
import { describeError } from '../../src/errors/index.ts';
import type { RawFailure } from '../raw.ts';
import type { ScrapeContext } from './types.ts';

/**
 * Runs `work` for every item with at most `concurrency` at once. A failing item is retried
 * `retries` times, then reported through `onGiveUp` — one bad page never ends the run.
 */
export async function forEachBounded<T>(
  items: readonly T[],
  options: { concurrency: number; retries: number },
  work: (item: T, index: number) => Promise<void>,
  onGiveUp: (item: T, index: number, error: string) => Promise<void>,
): Promise<void> {
  const limit = pLimit(Math.max(1, options.concurrency));
  await Promise.all(
    items.map((item, index) =>
      limit(async () => {
        let lastError: unknown;
        for (let attempt = 0; attempt <= options.retries; attempt++) {
          try {
            await work(item, index);
            return;
          } catch (err: unknown) {
            lastError = err;
          }
        }
        await onGiveUp(item, index, describeError(lastError));
      }),
    ),
  );
}

/**
 * The common walk of every adapter's level 3: read each failure with bounded parallelism, hand
 * it to the facts builder, and turn a failure that cannot be read into a stub with a warning.
 * Returns the run-level warnings.
 */
export async function emitFailures<T>(
  ctx: ScrapeContext,
  items: readonly T[],
  options: { concurrency: number; label: (item: T) => string },
  read: (item: T) => Promise<RawFailure>,
  unreadable: (item: T, error: string) => RawFailure,
): Promise<string[]> {
  const warnings: string[] = [];
  ctx.progress.start(items.length, 'failures');
  await forEachBounded(
    items,
    { concurrency: options.concurrency, retries: ctx.limits.pageRetries },
    async (item, order) => {
      await ctx.emit(order, await read(item));
      ctx.progress.tick(options.label(item));
    },
    async (item, order, error) => {
      warnings.push(`test "${options.label(item)}" could not be read: ${error}`);
      await ctx.emit(order, unreadable(item, error));
      ctx.progress.tick(options.label(item));
    },
  );
  ctx.progress.done();
  return warnings;
}

/**
 * The keys of the passed tests `ids` name, each read by `readKey` (as the adapter keys its
 * failures), with bounded parallelism. One that cannot be read is counted in a warning, not
 * guessed; parameterised tests sharing a key count once.
 */
export async function passedKeysOf(
  ids: readonly string[],
  ctx: ScrapeContext,
  readKey: (id: string) => Promise<string>,
): Promise<{ keys: string[]; warnings: string[] }> {
  const keys = new Set<string>();
  let unreadable = 0;
  await forEachBounded(
    ids,
    { concurrency: ctx.limits.concurrency * 8, retries: 0 },
    async (id) => {
      keys.add(await readKey(id));
    },
    async (id, _index, error) => {
      unreadable++;
      ctx.log.warn({ id, err: error }, 'passed test unreadable');
    },
  );
  return {
    keys: [...keys],
    warnings: unreadable === 0 ? [] : [`${unreadable} passed test file(s) could not be read`],
  };
}
