import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SqliteRunStorage, STAGES, type Stage } from '../../../src/store/runs/index.ts';
import { present, request, TestFiles } from './helpers.ts';

const LEASE = 60_000;
const EVIDENCE = {
  evidence_id: 'ev_00112233445566778899aabb',
  kind: 'trace_id' as const,
  note: 'trace 4f2a',
};

/** Claims and completes until the queue is empty; returns the stages run, as round:stage. */
async function drain(s: SqliteRunStorage): Promise<string[]> {
  const ran: string[] = [];
  for (;;) {
    const job = await s.queue.claim('w', LEASE);
    if (job === null) return ran;
    ran.push(`${job.round}:${job.stage}`);
    await s.queue.complete(job, { output: `${job.stage}@${job.round}` });
  }
}

describe('re-runs for QA evidence', () => {
  let files: TestFiles;
  let s: SqliteRunStorage;

  beforeEach(() => {
    files = new TestFiles();
    s = files.storage();
  });
  afterEach(() => files.cleanup());

  it('re-diagnoses a done run in a new round from the stage asked, reusing earlier outputs', async () => {
    const { run } = await s.runs.create(request());
    await drain(s);

    const rerun = await s.queue.rerun(run.id, 'diagnose', EVIDENCE);

    expect(rerun).toEqual({ round: 2, from: 'diagnose', started: true, evidence_added: true });
    expect(await s.runs.get(run.id)).toMatchObject({ state: 'queued', round: 2, round_from: 'diagnose' });
    expect(await s.runs.evidence(run.id)).toMatchObject([{ ...EVIDENCE, round: 2 }]);
    expect(await drain(s)).toEqual(['2:diagnose', '2:check', '2:publish', '2:page']);
    expect((await s.runs.get(run.id)).state).toBe('done');
    expect((await s.runs.output(run.id, 'locate'))?.output).toBe('locate@1');
    expect((await s.runs.output(run.id, 'diagnose'))?.output).toBe('diagnose@2');
    expect(await s.runs.stages(run.id)).toHaveLength(STAGES.length + 4);
  });

  it('starts a re-run at an earlier stage that never completed', async () => {
    const { run } = await s.runs.create(request());
    for (const stage of ['scrape', 'context'] as Stage[]) {
      const job = await s.queue.claim('w', LEASE);
      expect(job?.stage).toBe(stage);
      await s.queue.complete(present(job));
    }
    await s.queue.fail(present(await s.queue.claim('w', LEASE)), 'git fetch refused', { retryable: false });

    expect(await s.queue.rerun(run.id, 'diagnose')).toMatchObject({ from: 'locate', started: true });
    expect(await drain(s)).toEqual(['2:locate', '2:diagnose', '2:check', '2:publish', '2:page']);
  });

  it('queues a re-run asked for mid-round until the round ends', async () => {
    const { run } = await s.runs.create(request());
    let job = await s.queue.claim('w', LEASE);
    // Still scraping: the round's own diagnose will read the evidence.
    expect(await s.queue.rerun(run.id, 'diagnose', EVIDENCE)).toEqual({
      round: 1,
      from: 'diagnose',
      started: false,
      evidence_added: true,
    });
    while (job !== null && job.stage !== 'check') {
      await s.queue.complete(job);
      job = await s.queue.claim('w', LEASE);
    }
    // Checking: the diagnosis is made, so a new round must redo it once this one ends.
    expect(await s.queue.rerun(run.id, 'diagnose')).toMatchObject({ round: 2, started: false });
    expect(await s.queue.rerun(run.id, 'check')).toMatchObject({
      round: 2,
      from: 'diagnose',
      started: false,
    });
    await s.queue.complete(present(job));
    expect(await drain(s)).toEqual(['1:publish', '1:page', '2:diagnose', '2:check', '2:publish', '2:page']);
    expect(await s.runs.get(run.id)).toMatchObject({ state: 'done', round: 2, rerun_from: null });
  });
});
