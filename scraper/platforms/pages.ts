import pLimit from 'p-limit';
import { describeError } from '../../src/errors/index.ts';

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
