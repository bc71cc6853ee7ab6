import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/service/index.ts';
import { IN_MEMORY, type Job, openRunStorage, type SqliteRunStorage } from '../../src/store/runs/index.ts';
import { request } from '../store/runs/helpers.ts';

let storage: SqliteRunStorage | undefined;
afterEach(() => storage?.close());

/** A stage that holds until `release`, counting how many are held at once and by which workers. */
function heldStages() {
  let inFlight = 0;
  let peak = 0;
  const runs = new Set<string>();
  const waiting: Array<() => void> = [];
  return {
    runStage: async (job: Job) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      runs.add(job.run_id);
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight--;
      return { output: { stage: job.stage } };
    },
    release: () => {
      for (const resolve of waiting.splice(0)) resolve();
    },
    get peak() {
      return peak;
    },
    get held() {
      return waiting.length;
    },
    runs,
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('WorkerPool (limits.concurrentRuns)', () => {
  it.each([1, 2, 3])('works on at most %i runs at once, each run by one worker', async (size) => {
    storage = openRunStorage(IN_MEMORY);
    for (let patchset = 1; patchset <= 4; patchset++)
      await storage.runs.create(request({ change: 10 + patchset, patchset }));
    const stages = heldStages();
    const pool = new WorkerPool(size, {
      queue: storage.queue,
      runs: storage.runs,
      runStage: stages.runStage,
      log: pino({ level: 'silent' }),
      workerId: 'pool',
      pollMs: 5,
    });
    pool.start();
    await until(() => stages.held === size);
    // Give an over-eager pool the chance to claim more than it may.
    await new Promise((r) => setTimeout(r, 50));
    expect(stages.held).toBe(size);
    expect(stages.runs.size).toBe(size);
    stages.release();
    const stopping = pool.stop();
    await until(() => stages.held > 0);
    stages.release();
    await stopping;
    expect(stages.peak).toBe(size);
  });

  it('refuses a pool without workers', () => {
    expect(() => new WorkerPool(0, {} as never)).toThrow(/at least one worker/);
  });
});
