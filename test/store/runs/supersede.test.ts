import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseLostError, type SqliteRunStorage } from '../../../src/store/runs/index.ts';
import { present, request, TestFiles } from './helpers.ts';

const LEASE = 60_000;

describe('supersede, cancel and depth', () => {
  let files: TestFiles;
  let s: SqliteRunStorage;

  beforeEach(() => {
    files = new TestFiles();
    s = files.storage();
  });
  afterEach(() => files.cleanup());

  it('supersedes the unfinished runs of earlier patchsets of the change, and nothing else', async () => {
    const ps1 = (await s.runs.create(request({ patchset: 1 }))).run;
    const ps2 = (await s.runs.create(request({ patchset: 2 }))).run;
    const ps1done = (await s.runs.create(request({ patchset: 1, report_url: 'http://ci.example/other/' })))
      .run;
    const ps3 = (await s.runs.create(request({ patchset: 3 }))).run;
    const otherChange = (await s.runs.create(request({ change: 8, patchset: 1 }))).run;
    // ps1 is waiting at scrape; ps2 is being scraped; the second ps1 run has already ended.
    const first = await s.queue.claim('w', LEASE);
    expect(first?.run_id).toBe(ps1.id);
    await s.queue.fail(present(first), 'flaky', { retryable: true });
    const running = await s.queue.claim('w', LEASE);
    expect(running?.run_id).toBe(ps2.id);
    await s.queue.cancel(ps1done.id);
    expect(await s.queue.depth()).toBe(4);

    const superseded = await s.queue.supersede(7, 3);

    expect(superseded.sort()).toEqual([ps1.id, ps2.id].sort());
    expect((await s.runs.get(ps1.id)).state).toBe('superseded');
    expect(await s.runs.get(ps2.id)).toMatchObject({
      state: 'superseded',
      error: 'superseded by patchset 3',
    });
    expect((await s.runs.get(ps1done.id)).state).toBe('cancelled');
    expect((await s.runs.get(ps3.id)).state).toBe('queued');
    expect((await s.runs.get(otherChange.id)).state).toBe('queued');
    expect(await s.queue.depth()).toBe(2);
    files.clock.advance(LEASE * 10);
    const left = [await s.queue.claim('w', LEASE), await s.queue.claim('w', LEASE)];
    expect(left.map((j) => j?.run_id).sort()).toEqual([ps3.id, otherChange.id].sort());
    expect(await s.queue.claim('w', LEASE)).toBeNull();
    expect(await s.queue.supersede(7, 3)).toEqual([]);
  });

  it('tells the worker of a superseded run, and keeps what its stage did', async () => {
    const { run } = await s.runs.create(request({ patchset: 1 }));
    const job = await s.queue.claim('w', LEASE);
    await s.queue.supersede(7, 2);

    expect(await s.queue.heartbeat(present(job), LEASE)).toBe('cancelled');
    expect(await s.queue.complete(present(job), { output: { scraped: 3 } })).toEqual({
      next: null,
      cancelled: true,
      rerun: false,
    });
    expect((await s.runs.output(run.id, 'scrape'))?.output).toEqual({ scraped: 3 });
    expect((await s.runs.get(run.id)).state).toBe('superseded');
    expect(await s.queue.depth()).toBe(0);
    await expect(s.queue.complete(present(job))).rejects.toBeInstanceOf(LeaseLostError);
    expect(await s.queue.heartbeat(present(job), LEASE)).toBe('lost');
  });

  it('ends the stage of a cancelled run whose worker died before reporting', async () => {
    const { run } = await s.runs.create(request());
    const job = present(await s.queue.claim('w', LEASE));
    await s.queue.cancel(run.id);
    expect((await s.runs.stages(run.id))[0]?.status).toBe('running');

    files.clock.advance(LEASE);
    await s.queue.recover();

    expect((await s.runs.stages(run.id))[0]).toMatchObject({
      status: 'failed',
      error: 'cancelled; worker w lost',
    });
    expect(await s.queue.heartbeat(job, LEASE)).toBe('lost');
    expect((await s.runs.get(run.id)).state).toBe('cancelled');
  });

  it('cancels a run once; its queued work is never claimed', async () => {
    const { run } = await s.runs.create(request());
    expect(await s.queue.cancel(run.id, 'CI retriggered')).toBe(true);
    expect(await s.queue.cancel(run.id)).toBe(false);
    expect(await s.runs.get(run.id)).toMatchObject({ state: 'cancelled', error: 'CI retriggered' });
    expect(await s.queue.claim('w', LEASE)).toBeNull();
    await expect(s.queue.rerun(run.id, 'diagnose')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('counts queued and running work as depth, and not finished work', async () => {
    for (const patchset of [1, 2, 3]) await s.runs.create(request({ patchset }));
    expect(await s.queue.depth()).toBe(3);
    const job = await s.queue.claim('w', LEASE);
    expect(await s.queue.depth()).toBe(3);
    await s.queue.complete(present(job), { next: null });
    expect(await s.queue.depth()).toBe(2);
    const second = await s.queue.claim('w', LEASE);
    await s.queue.complete(present(second));
    expect(await s.queue.depth()).toBe(2);
    await s.queue.fail(present(await s.queue.claim('w', LEASE)), 'x', { retryable: false });
    expect(await s.queue.depth()).toBe(1);
  });
});
