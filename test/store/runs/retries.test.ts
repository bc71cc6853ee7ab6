import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../../src/errors/index.ts';
import type { SqliteRunStorage } from '../../../src/store/runs/index.ts';
import { present, request, TestFiles } from './helpers.ts';

const LEASE = 60_000;

describe('retries', () => {
  let files: TestFiles;
  let s: SqliteRunStorage;

  beforeEach(() => {
    files = new TestFiles();
    s = files.storage({ maxAttempts: 3, backoffMs: 1_000 });
  });
  afterEach(() => files.cleanup());

  it('retries a transient failure after a doubling backoff, then fails the run', async () => {
    const { run } = await s.runs.create(request());
    const t0 = files.clock.ms;

    const first = await s.queue.claim('w', LEASE);
    expect(await s.queue.fail(present(first), new Error('Gerrit 503'), { retryable: true })).toEqual({
      retried: true,
      attempt: 1,
      available_at: new Date(t0 + 1_000).toISOString(),
    });
    expect((await s.runs.stages(run.id))[0]).toMatchObject({ status: 'waiting_retry', error: 'Gerrit 503' });
    files.clock.advance(999);
    expect(await s.queue.claim('w', LEASE)).toBeNull();
    files.clock.advance(1);
    const second = await s.queue.claim('w', LEASE);
    expect(second).toMatchObject({ stage: 'scrape', attempt: 2, max_attempts: 3 });

    expect(await s.queue.fail(present(second), new Error('Gerrit 503'), { retryable: true })).toMatchObject({
      retried: true,
      available_at: new Date(files.clock.ms + 2_000).toISOString(),
    });
    files.clock.advance(1_999);
    expect(await s.queue.claim('w', LEASE)).toBeNull();
    files.clock.advance(1);
    const third = await s.queue.claim('w', LEASE);
    expect(third?.attempt).toBe(3);

    const error = new DiagnosisError('PAGE_TIMEOUT', 'report page did not load in 30 s', { input: 'x' });
    expect(await s.queue.fail(present(third), error, { retryable: true })).toEqual({
      retried: false,
      attempt: 3,
    });
    const failed = await s.runs.get(run.id);
    expect(failed).toMatchObject({
      state: 'failed',
      stage: 'scrape',
      error: 'scrape: PAGE_TIMEOUT: report page did not load in 30 s (after 3 attempts)',
    });
    expect(failed.finished_at).not.toBeNull();
    expect((await s.runs.stages(run.id))[0]).toMatchObject({ status: 'failed', attempt: 3 });
    expect(await s.queue.depth()).toBe(0);
    files.clock.advance(3_600_000);
    expect(await s.queue.claim('w', LEASE)).toBeNull();
    expect((await s.runs.events(run.id)).filter((e) => e.kind === 'retry')).toHaveLength(2);
  });

  it('fails at once on an error that is not retryable', async () => {
    const { run } = await s.runs.create(request());
    await s.queue.complete(present(await s.queue.claim('w', LEASE)));
    const context = await s.queue.claim('w', LEASE);

    expect(
      await s.queue.fail(present(context), new Error('repository not found'), { retryable: false }),
    ).toEqual({
      retried: false,
      attempt: 1,
    });
    expect(await s.runs.get(run.id)).toMatchObject({
      state: 'failed',
      error: 'context: repository not found',
    });
    // The completed stage stays completed.
    expect((await s.runs.output(run.id, 'scrape'))?.status).toBe('done');
  });

  it('caps the backoff and honours per-stage attempts', async () => {
    const capped = files.storage({
      backoffMs: 1_000,
      maxBackoffMs: 3_000,
      maxAttempts: 10,
      stageAttempts: { scrape: 1 },
    });
    expect([1, 2, 3, 4, 8].map((a) => capped.queue.backoff(a))).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
    await capped.runs.create(request());
    const job = await capped.queue.claim('w', LEASE);
    expect(job?.max_attempts).toBe(1);
    expect(await capped.queue.fail(present(job), 'boom', { retryable: true })).toMatchObject({
      retried: false,
    });
  });

  it('does not let a retry go to a worker before its time, but does give other work', async () => {
    const a = (await s.runs.create(request({ patchset: 1 }))).run;
    files.clock.advance(10);
    const b = (await s.runs.create(request({ patchset: 2 }))).run;
    const first = await s.queue.claim('w', LEASE);
    expect(first?.run_id).toBe(a.id);
    await s.queue.fail(present(first), 'flaky', { retryable: true });

    expect((await s.queue.claim('w', LEASE))?.run_id).toBe(b.id);
    expect(await s.queue.claim('w', LEASE)).toBeNull();
    files.clock.advance(1_000);
    expect((await s.queue.claim('w', LEASE))?.run_id).toBe(a.id);
  });
});
