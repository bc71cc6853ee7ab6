import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { DiagnosisRun } from '../../../src/schemas/index.ts';
import {
  IN_MEMORY,
  LeaseLostError,
  MIGRATIONS,
  markerRunId,
  openRunStorage,
  RUNS_FILE,
  type SqliteRunStorage,
  STAGES,
  type Stage,
} from '../../../src/store/runs/index.ts';
import { present, request, TestFiles } from './helpers.ts';

const WORKER = 'worker-1';
const LEASE = 60_000;

describe('run lifecycle', () => {
  let files: TestFiles;
  let s: SqliteRunStorage;

  beforeEach(() => {
    files = new TestFiles();
    s = files.storage();
  });
  afterEach(() => files.cleanup());

  it('lists the stages once, in pipeline order', () => {
    expect(STAGES).toEqual(['scrape', 'context', 'locate', 'diagnose', 'check', 'publish', 'page']);
  });

  it('works in memory too, for one-off CLI runs', async () => {
    const memory = openRunStorage(IN_MEMORY);
    try {
      const { run } = await memory.runs.create(request());
      expect((await memory.queue.claim(WORKER, LEASE))?.run_id).toBe(run.id);
    } finally {
      memory.close();
    }
  });

  it("gives each round its own marker id, within the publisher's 64 characters", () => {
    const id = 'x'.repeat(56);
    expect(markerRunId(id, 1)).toBe(id);
    expect(markerRunId(id, 999_999)).toBe(`${id}.r999999`);
    expect(DiagnosisRun.shape.run_id.safeParse(markerRunId(id, 999_999)).success).toBe(true);
  });

  it('keeps one file in WAL mode at the latest schema version', () => {
    expect(s.path).toBe(`${files.dir}/${RUNS_FILE}`);
    const db = new Database(s.path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it('takes a run from queued through every stage to done, one stage after another', async () => {
    const { run, created } = await s.runs.create(request());
    expect(created).toBe(true);
    expect(run).toMatchObject({ state: 'queued', stage: 'scrape', round: 1, error: null, started_at: null });
    expect(run.key).toBe('shop~7~2~http://ci.example/job/42/allure/');
    expect(run.request).toMatchObject({
      change: 7,
      patchset: 2,
      platform: 'allure2',
      job_name: 'shop-verify',
    });

    const seen: Stage[] = [];
    for (;;) {
      const job = await s.queue.claim(WORKER, LEASE);
      if (job === null) break;
      expect(job).toMatchObject({ run_id: run.id, round: 1, attempt: 1, worker: WORKER });
      expect((await s.runs.get(run.id)).state).toBe('running');
      seen.push(job.stage);
      files.clock.advance(1_500);
      const result = await s.queue.complete(job, { output: { stage: job.stage, n: seen.length } });
      expect(result.next).toBe(STAGES[seen.length] ?? null);
    }

    expect(seen).toEqual(STAGES);
    const done = await s.runs.get(run.id);
    expect(done).toMatchObject({ state: 'done', stage: 'page', error: null });
    expect(done.finished_at).not.toBeNull();
    const stages = await s.runs.stages(run.id);
    expect(stages.map((r) => [r.stage, r.status, r.duration_ms])).toEqual(
      STAGES.map((stage) => [stage, 'done', 1_500]),
    );
    expect((await s.runs.output(run.id, 'locate'))?.output).toEqual({ stage: 'locate', n: 3 });
    expect(await s.queue.depth()).toBe(0);
    const kinds = (await s.runs.events(run.id)).map((e) => e.kind);
    expect(kinds[0]).toBe('created');
    expect(kinds.at(-1)).toBe('done');
    expect(kinds.filter((k) => k === 'completed')).toHaveLength(STAGES.length);
  });

  it('jumps ahead when a stage says so, recording the stages between as skipped', async () => {
    const { run } = await s.runs.create(request());
    const scrape = await s.queue.claim(WORKER, LEASE);
    expect(
      await s.queue.complete(present(scrape), { output: { failures: 1 }, next: 'locate' }),
    ).toMatchObject({
      next: 'locate',
    });
    const locate = await s.queue.claim(WORKER, LEASE);
    expect(locate?.stage).toBe('locate');
    // No failures left to diagnose: the run ends here.
    expect(
      await s.queue.complete(present(locate), { ref: 'ev_0123456789abcdef01234567', next: null }),
    ).toMatchObject({
      next: null,
    });

    expect((await s.runs.get(run.id)).state).toBe('done');
    const byStage = Object.fromEntries((await s.runs.stages(run.id)).map((r) => [r.stage, r.status]));
    expect(byStage).toEqual({
      scrape: 'done',
      context: 'skipped',
      locate: 'done',
      diagnose: 'skipped',
      check: 'skipped',
      publish: 'skipped',
      page: 'skipped',
    });
    expect((await s.runs.output(run.id, 'locate'))?.ref).toBe('ev_0123456789abcdef01234567');
  });

  it('refuses a stage that goes backwards, and keeps the job held', async () => {
    await s.runs.create(request());
    const scrape = await s.queue.claim(WORKER, LEASE);
    const second = await s.queue.complete(present(scrape));
    expect(second.next).toBe('context');
    const context = await s.queue.claim(WORKER, LEASE);

    await expect(s.queue.complete(present(context), { next: 'scrape' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('cannot be followed by scrape'),
    });
    expect(await s.queue.heartbeat(present(context), LEASE)).toBe('extended');
    expect((await s.queue.complete(present(context))).next).toBe('locate');
  });

  it('records the post the publish stage made, in the same step, once per digest', async () => {
    const { run } = await s.runs.create(request());
    for (const stage of STAGES.slice(0, 5)) {
      const job = await s.queue.claim(WORKER, LEASE);
      expect(job?.stage).toBe(stage);
      await s.queue.complete(present(job));
    }
    const publish = await s.queue.claim(WORKER, LEASE);
    await s.queue.complete(present(publish), {
      output: { status: 'posted' },
      post: { digest: 'abcdef012345', status: 'posted', message_id: 'm1' },
    });
    expect(await s.runs.recordPost(run.id, { digest: 'abcdef012345', status: 'already_posted' })).toBe(false);

    expect(await s.runs.posts(run.id)).toEqual([
      {
        run_id: run.id,
        round: 1,
        digest: 'abcdef012345',
        status: 'posted',
        message_id: 'm1',
        at: files.clock.now().toISOString(),
      },
    ]);
  });

  it('creates a run once per idempotency key', async () => {
    const first = await s.runs.create(request());
    const again = await s.runs.create(request({ job_name: 'retriggered' }));
    const otherReport = await s.runs.create(request({ report_url: 'http://ci.example/job/43/allure/' }));
    const byKey = await s.runs.create(request(), { key: 'custom-key' });

    expect(again).toEqual({ run: first.run, created: false });
    expect(otherReport.created).toBe(true);
    expect(byKey.created).toBe(true);
    expect(new Set([first.run.id, otherReport.run.id, byKey.run.id]).size).toBe(3);
    expect(await s.queue.depth()).toBe(3);
    expect((await s.runs.list()).total).toBe(3);
  });

  it('lists runs newest first, by change, patchset and state, a page at a time', async () => {
    const ids: string[] = [];
    for (const patchset of [1, 2, 3]) {
      ids.push((await s.runs.create(request({ patchset }))).run.id);
      files.clock.advance(1_000);
    }
    const other = (await s.runs.create(request({ change: 8, patchset: 1 }))).run.id;
    await s.queue.cancel(ids[0] as string);

    expect((await s.runs.list()).runs.map((r) => r.id)).toEqual([other, ids[2], ids[1], ids[0]]);
    const page = await s.runs.list({ change: 7, limit: 2, offset: 1 });
    expect(page).toMatchObject({ total: 3 });
    expect(page.runs.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    expect((await s.runs.list({ state: 'cancelled' })).runs.map((r) => r.id)).toEqual([ids[0]]);
    expect((await s.runs.list({ change: 7, state: ['queued', 'running'] })).total).toBe(2);
    expect((await s.runs.latest({ change: 7 }))?.id).toBe(ids[2]);
    expect((await s.runs.latest({ change: 7, patchset: 1 }))?.id).toBe(ids[0]);
    expect(await s.runs.latest({ change: 9 })).toBeNull();
  });

  it('counts runs by state and gives stage duration histograms for /metrics', async () => {
    await s.runs.create(request({ patchset: 1 }));
    await s.runs.create(request({ patchset: 2 }));
    const cancelled = (await s.runs.create(request({ patchset: 3 }))).run.id;
    await s.queue.cancel(cancelled, 'test');
    const scrape = await s.queue.claim(WORKER, LEASE);
    files.clock.advance(700);
    await s.queue.complete(present(scrape));
    const scrape2 = await s.queue.claim(WORKER, LEASE);
    files.clock.advance(20_000);
    await s.queue.complete(present(scrape2));

    expect(await s.runs.countsByState()).toEqual({
      queued: 0,
      running: 2,
      done: 0,
      failed: 0,
      superseded: 0,
      cancelled: 1,
    });
    const durations = await s.runs.stageDurations([1_000, 10_000]);
    expect(durations.map((d) => d.stage)).toEqual(STAGES);
    expect(durations[0]).toEqual({
      stage: 'scrape',
      count: 2,
      sum_ms: 20_700,
      buckets: [
        { le: 1_000, count: 1 },
        { le: 10_000, count: 1 },
        { le: Number.POSITIVE_INFINITY, count: 2 },
      ],
    });
    expect(durations[1]).toMatchObject({ stage: 'context', count: 0, sum_ms: 0 });
  });

  it('keeps QA evidence and run events', async () => {
    const { run } = await s.runs.create(request());
    const evidence = {
      evidence_id: 'ev_00112233445566778899aabb',
      kind: 'log' as const,
      note: 'service log',
    };
    expect(await s.runs.addEvidence(run.id, evidence)).toBe(true);
    expect(await s.runs.addEvidence(run.id, { ...evidence, note: 'again' })).toBe(false);
    await s.runs.log(run.id, 'note', 'browser restarted', { pages: 2 });

    expect(await s.runs.evidence(run.id)).toEqual([
      { run_id: run.id, ...evidence, round: null, at: files.clock.now().toISOString() },
    ]);
    expect((await s.runs.events(run.id)).at(-1)).toMatchObject({
      kind: 'note',
      message: 'browser restarted',
      data: { pages: 2 },
    });
  });

  it('refuses a complete from a worker whose lease passed to another', async () => {
    await s.runs.create(request());
    const first = await s.queue.claim('worker-a', 1_000);
    files.clock.advance(1_001);
    const second = await s.queue.claim('worker-b', LEASE);
    expect(second).toMatchObject({ id: first?.id, stage: 'scrape', attempt: 2, worker: 'worker-b' });

    await expect(s.queue.complete(present(first), { output: 'stale' })).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect(await s.queue.heartbeat(present(first), LEASE)).toBe('lost');
    expect((await s.queue.complete(present(second), { output: 'fresh' })).next).toBe('context');
    await expect(s.queue.complete(present(second))).rejects.toThrow(/no longer held.*it is done/);
    expect((await s.runs.stages(present(second).run_id))[0]).toMatchObject({
      stage: 'scrape',
      status: 'done',
      output: 'fresh',
      attempt: 2,
    });
  });

  it('keeps a lease alive with heartbeats', async () => {
    await s.runs.create(request());
    const job = await s.queue.claim(WORKER, 1_000);
    for (let i = 0; i < 5; i++) {
      files.clock.advance(900);
      expect(await s.queue.heartbeat(present(job), 1_000)).toBe('extended');
    }
    expect(await s.queue.claim('worker-2', LEASE)).toBeNull();
    files.clock.advance(1_001);
    expect(await s.queue.claim('worker-2', LEASE)).not.toBeNull();
  });

  it('answers bad input with typed errors naming the input', async () => {
    const bad = async (p: Promise<unknown>, input: string, text: RegExp) => {
      const err = await p.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DiagnosisError);
      expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', input });
      expect((err as Error).message).toMatch(text);
    };
    await bad(s.runs.create(request({ patchset: 0 })), 'run request', /at patchset/);
    await bad(
      s.runs.create(request({ patchset: null, revision: null })),
      'run request',
      /patchset or a revision/,
    );
    await bad(s.runs.create({ ...request(), extra: 1 } as never), 'run request', /extra/);
    await bad(s.runs.create(request(), { id: 'no spaces' }), 'run id', /run id is invalid/);
    await expect(s.runs.get('r-missing')).rejects.toMatchObject({
      code: 'RUN_NOT_FOUND',
      input: 'r-missing',
      message: expect.stringMatching(/"r-missing" is not in the store/),
    });
    await bad(s.queue.claim('', LEASE), 'worker id', /worker id is invalid/);
    await bad(s.queue.claim(WORKER, 0), 'lease (ms)', /lease/);
    const { run } = await s.runs.create(request());
    await bad(s.queue.enqueue(run.id, 'deploy' as Stage), 'stage', /stage is invalid/);
    await bad(s.queue.enqueue(run.id, 'locate'), run.id, /already has stage scrape queued/);
    await bad(s.runs.list({ limit: 10_000 }), 'run list query', /at limit/);
    await bad(s.runs.recordPost(run.id, { digest: 'x', status: 'dry_run' as never }), 'post', /at status/);
    const job = await s.queue.claim(WORKER, LEASE);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await bad(
      s.queue.complete(present(job), { output: circular }),
      `output of job ${job?.id}`,
      /cannot be stored as JSON/,
    );
    await bad(s.queue.complete({ id: '999', token: 'x' }), '999', /job 999 is not in the queue/);

    // None of it changed what is stored.
    expect((await s.runs.list()).total).toBe(1);
    expect(await s.queue.heartbeat(present(job), LEASE)).toBe('extended');
  });

  it('does not queue a stage already completed, nor work for a finished run', async () => {
    const { run } = await s.runs.create(request());
    const scrape = await s.queue.claim(WORKER, LEASE);
    await s.queue.complete(present(scrape));
    expect(await s.queue.enqueue(run.id, 'scrape')).toBeNull();
    const context = await s.queue.claim(WORKER, LEASE);
    expect(await s.queue.enqueue(run.id, 'context')).toBe(context?.id);
    await s.queue.cancel(run.id);
    await expect(s.queue.enqueue(run.id, 'locate')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
