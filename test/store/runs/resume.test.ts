import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeMessageInfo, GerritClient, ReviewInput } from '../../../src/gerrit/index.ts';
import { publishDiagnosis } from '../../../src/publish/index.ts';
import { type SqliteRunStorage, STAGES, type Stage } from '../../../src/store/runs/index.ts';
import { CART_TS, REVISION, sampleRun } from '../../publish/sample.ts';
import { present, request, TestFiles } from './helpers.ts';

const LEASE = 30_000;

/** Runs one claimed stage to completion, counting each stage's side effect. */
async function step(s: SqliteRunStorage, effects: Map<Stage, number>): Promise<Stage | null> {
  const job = await s.queue.claim('worker', LEASE);
  if (job === null) return null;
  effects.set(job.stage, (effects.get(job.stage) ?? 0) + 1);
  await s.queue.complete(job, { output: { by: job.stage } });
  return job.stage;
}

describe('resuming after a crash', () => {
  let files: TestFiles;

  beforeEach(() => {
    files = new TestFiles();
  });
  afterEach(() => files.cleanup());

  it('resumes a run at the stage that was running, never re-running a completed one', async () => {
    const effects = new Map<Stage, number>();
    let s = files.storage();
    const { run } = await s.runs.create(request());
    for (const stage of ['scrape', 'context', 'locate'] as const) expect(await step(s, effects)).toBe(stage);
    const diagnose = await s.queue.claim('worker', LEASE);
    expect(diagnose?.stage).toBe('diagnose');
    effects.set('diagnose', 1);
    // The process dies: the connection closes with the stage neither completed nor failed.
    s.close();

    files.clock.advance(5_000);
    s = files.storage();
    expect(await s.queue.recover()).toEqual({ released: 0, failed: 0, resumed: 0 });
    // The lease still runs: nobody may take the stage yet.
    expect(await s.queue.claim('worker-2', LEASE)).toBeNull();
    files.clock.advance(LEASE);
    expect(await s.queue.recover()).toEqual({ released: 1, failed: 0, resumed: 0 });

    const again = await s.queue.claim('worker-2', LEASE);
    expect(again).toMatchObject({ run_id: run.id, stage: 'diagnose', attempt: 2, round: 1 });
    await s.queue.complete(present(again), { output: { by: 'diagnose' } });
    while ((await step(s, effects)) !== null) {}

    expect(Object.fromEntries(effects)).toEqual({
      scrape: 1,
      context: 1,
      locate: 1,
      diagnose: 1,
      check: 1,
      publish: 1,
      page: 1,
    });
    expect((await s.runs.get(run.id)).state).toBe('done');
    expect((await s.runs.output(run.id, 'scrape'))?.attempt).toBe(1);
    const kinds = (await s.runs.events(run.id)).map((e) => e.kind);
    expect(kinds).toContain('recovered');
  });

  it('releases every running job at a single-process start-up, lease or not', async () => {
    let s = files.storage();
    await s.runs.create(request({ patchset: 1 }));
    await s.runs.create(request({ patchset: 2 }));
    const a = await s.queue.claim('old-process', LEASE);
    const b = await s.queue.claim('old-process', LEASE);
    s.close();

    s = files.storage();
    expect(await s.queue.claim('new-process', LEASE)).toBeNull();
    expect(await s.queue.recover({ releaseAll: true })).toEqual({ released: 2, failed: 0, resumed: 0 });
    const claimed = [await s.queue.claim('new-process', LEASE), await s.queue.claim('new-process', LEASE)];
    expect(claimed.map((j) => j?.id).sort()).toEqual([a?.id, b?.id].sort());
    expect(claimed.every((j) => j?.stage === 'scrape' && j.attempt === 2)).toBe(true);
    // The old process's handles hold nothing any more.
    await expect(s.queue.complete(present(a))).rejects.toMatchObject({ name: 'LeaseLostError' });
  });

  it('fails the run when its worker is lost on the last attempt', async () => {
    const s = files.storage({ maxAttempts: 2 });
    const { run } = await s.runs.create(request());
    await s.queue.claim('w1', LEASE);
    files.clock.advance(LEASE);
    const second = await s.queue.claim('w2', LEASE);
    expect(second?.attempt).toBe(2);
    files.clock.advance(LEASE);

    expect(await s.queue.recover()).toEqual({ released: 0, failed: 1, resumed: 0 });
    expect(await s.queue.claim('w3', LEASE)).toBeNull();
    const failed = await s.runs.get(run.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/^scrape: worker w2 lost .* on attempt 2 of 2/);
    expect((await s.runs.stages(run.id))[0]).toMatchObject({ stage: 'scrape', status: 'failed' });
  });

  it('queues a stranded run again at the stage after its last completed one', async () => {
    const s = files.storage();
    const effects = new Map<Stage, number>();
    const { run } = await s.runs.create(request());
    await step(s, effects);
    await step(s, effects);
    const finished = (await s.runs.create(request({ patchset: 3 }))).run;
    // Lose the queue rows, as a partial restore or a hand edit would.
    const raw = new Database(s.path);
    raw.exec('DELETE FROM jobs');
    raw.prepare("UPDATE runs SET state = 'running' WHERE id = ?").run(finished.id);
    raw.close();

    expect(await s.queue.recover()).toEqual({ released: 0, failed: 0, resumed: 2 });
    const next = await s.queue.claim('w', LEASE);
    expect(next).toMatchObject({ run_id: run.id, stage: 'locate', round: 1 });
    expect((await s.queue.claim('w', LEASE))?.stage).toBe('scrape');
  });

  it('relies on the publisher marker: a crash between post and record posts once', async () => {
    const gerrit = fakeGerrit();
    let s = files.storage();
    const { run } = await s.runs.create(
      request({ project: 'shop', change: 7, patchset: 2, revision: REVISION }),
    );
    const diagnosis = sampleRun(undefined, { run_id: run.id });
    const deps = { client: gerrit.client, log: { info: () => {}, warn: () => {} } };
    for (const stage of STAGES.slice(0, 5)) expect(await step(s, new Map())).toBe(stage);

    const publish = await s.queue.claim('worker', LEASE);
    expect(publish?.stage).toBe('publish');
    expect(await publishDiagnosis(deps, diagnosis)).toMatchObject({ status: 'posted' });
    // Posted on Gerrit, then the process dies before complete() records it.
    s.close();

    files.clock.advance(LEASE + 1);
    s = files.storage();
    await s.queue.recover();
    const retry = await s.queue.claim('worker', LEASE);
    expect(retry).toMatchObject({ stage: 'publish', attempt: 2 });
    const result = await publishDiagnosis(deps, diagnosis);
    expect(result).toMatchObject({ status: 'already_posted' });
    await s.queue.complete(present(retry), {
      output: { status: result.status },
      post: {
        digest: result.digest,
        status: result.status as 'already_posted',
        message_id: 'message_id' in result ? result.message_id : null,
      },
    });

    expect(gerrit.posts).toHaveLength(1);
    expect(await s.runs.posts(run.id)).toMatchObject([
      { status: 'already_posted', digest: result.digest, message_id: 'm1' },
    ]);
    expect((await s.queue.claim('worker', LEASE))?.stage).toBe('page');
  });
});

/** A Gerrit that keeps what is posted and lists it back as change messages. */
function fakeGerrit(): { client: GerritClient; posts: ReviewInput[] } {
  const posts: ReviewInput[] = [];
  const messages: ChangeMessageInfo[] = [];
  const client = {
    listFiles: async () => ({ 'src/cart.ts': {} }),
    getFileContent: async () => CART_TS,
    listMessages: async () => [...messages],
    postReview: async (_change: string, _revision: string, review: ReviewInput) => {
      posts.push(review);
      messages.push({
        id: `m${messages.length + 1}`,
        tag: review.tag,
        message: `Patch Set 2:\n\n${review.message ?? ''}`,
        _revision_number: 2,
      } as ChangeMessageInfo);
      return {};
    },
  };
  return { client: client as unknown as GerritClient, posts };
}
