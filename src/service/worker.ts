import type { Logger } from 'pino';
import { CRASH_AFTER_ENV } from '../config/index.ts';
import { DiagnosisError, isDiagnosisError } from '../errors/index.ts';
import { type Job, type JobQueue, type RunStore, Stage, type StageCompletion } from '../store/runs/index.ts';

/** Errors a retry cannot fix: the input is wrong, not the moment. */
const PERMANENT = new Set([
  'INVALID_ARGUMENT',
  'INPUT_NOT_FOUND',
  'NOT_A_REPORT',
  'EMPTY_REPORT',
  'MALFORMED_REPORT',
  'DIAGNOSIS_INVALID',
  'REVISION_NOT_FOUND',
  'REPO_NOT_FOUND',
  'GERRIT_AUTH',
  'GERRIT_NOT_FOUND',
  'PATH_REFUSED',
  'RUN_NOT_FOUND',
]);

export interface WorkerDeps {
  queue: JobQueue;
  runs: RunStore;
  runStage(job: Job, run: Awaited<ReturnType<RunStore['get']>>): Promise<StageCompletion>;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  workerId: string;
  leaseMs?: number;
  /** Wait between claims when the queue is empty. */
  pollMs?: number;
  onStage?(stage: Stage, ms: number, ok: boolean): void;
  /** Test-only crash point (see CRASH_AFTER_ENV); null or absent in production. */
  crashAfter?: Stage | null;
}

/**
 * Test-only: `CI_DIAGNOSIS_CRASH_AFTER=<stage>` makes the worker kill its process with SIGKILL the
 * moment that stage's work has returned — its side effects done (for publish: the review is on
 * Gerrit) — and before the queue records it. That is the one window where a restart could post
 * twice, and a kill from outside cannot be timed into it. An unknown stage is refused at start.
 */
export function crashPointFromEnv(env: NodeJS.ProcessEnv): Stage | null {
  const value = env[CRASH_AFTER_ENV];
  if (value === undefined || value === '') return null;
  const stage = Stage.safeParse(value);
  if (!stage.success) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `${CRASH_AFTER_ENV}=${value} names no stage; expected one of ${Stage.options.join(', ')}`,
      { input: CRASH_AFTER_ENV },
    );
  }
  return stage.data;
}

/** No exit handlers, no flushing, no closing of SQLite: as abrupt as the OOM killer. */
function killSelf(): void {
  process.kill(process.pid, 'SIGKILL');
}

/**
 * Claims jobs one at a time and runs their stage under a lease kept alive by heartbeats. A
 * stopped worker finishes the job in hand; a crashed one loses its lease, and the job is claimed
 * again at the same stage.
 */
export class Worker {
  private stopping = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly deps: WorkerDeps) {}

  start(): void {
    this.loop ??= this.run();
  }

  /** Finishes the job in hand, then returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop;
  }

  /** Claims and runs one job; false when there was none. */
  async runOnce(): Promise<boolean> {
    const leaseMs = this.deps.leaseMs ?? 120_000;
    const job = await this.deps.queue.claim(this.deps.workerId, leaseMs);
    if (job === null) return false;
    const started = performance.now();
    const beat = setInterval(() => void this.heartbeat(job, leaseMs), Math.max(1_000, leaseMs / 3));
    try {
      const completion = await this.deps.runStage(job, await this.deps.runs.get(job.run_id));
      if (job.stage === this.deps.crashAfter) {
        this.deps.log.warn({ run: job.run_id, stage: job.stage }, `${CRASH_AFTER_ENV}: crashing`);
        killSelf();
        // SIGKILL is delivered asynchronously: never let the bookkeeping below slip in first.
        await new Promise(() => {});
      }
      await this.deps.queue.complete(job, completion);
      this.deps.onStage?.(job.stage, performance.now() - started, true);
      this.deps.log.info({ run: job.run_id, stage: job.stage }, 'stage done');
    } catch (err: unknown) {
      this.deps.onStage?.(job.stage, performance.now() - started, false);
      const retryable = !(isDiagnosisError(err) && PERMANENT.has(err.code));
      const result = await this.deps.queue.fail(job, err, { retryable });
      this.deps.log.warn(
        { run: job.run_id, stage: job.stage, err: String(err), retried: result.retried },
        'stage failed',
      );
    } finally {
      clearInterval(beat);
    }
    return true;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const worked = await this.runOnce().catch((err: unknown) => {
        this.deps.log.error({ err: String(err) }, 'worker loop error');
        return false;
      });
      if (!worked && !this.stopping) await new Promise((r) => setTimeout(r, this.deps.pollMs ?? 500));
    }
  }

  private async heartbeat(job: Job, leaseMs: number): Promise<void> {
    const state = await this.deps.queue.heartbeat(job, leaseMs).catch(() => 'lost' as const);
    if (state !== 'extended')
      this.deps.log.warn({ run: job.run_id, stage: job.stage, state }, 'lease not extended');
  }
}

/**
 * `size` workers over one queue, so that many runs are diagnosed at once (limits.concurrentRuns).
 * Claims are atomic in the queue, and a run has one stage queued at a time, so two workers never
 * hold the same run; shared resources keep their own limits (browser pages, model calls, git).
 */
export class WorkerPool {
  readonly workers: readonly Worker[];

  constructor(size: number, deps: WorkerDeps) {
    if (!Number.isInteger(size) || size < 1)
      throw new DiagnosisError('INVALID_ARGUMENT', `a worker pool needs at least one worker, not ${size}`, {
        input: String(size),
      });
    this.workers = Array.from(
      { length: size },
      (_, i) => new Worker({ ...deps, workerId: size === 1 ? deps.workerId : `${deps.workerId}-${i + 1}` }),
    );
  }

  start(): void {
    for (const worker of this.workers) worker.start();
  }

  /** Every worker finishes the job in hand, then returns. */
  async stop(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }
}
