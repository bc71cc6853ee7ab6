import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../../errors/index.ts';
import { type RunsDatabase, toJson } from './database.ts';
import { invalid, LeaseLostError, parseInput } from './errors.ts';
import { insertEvidence, insertPost } from './run-store.ts';
import {
  FINISHED_STATES,
  type Job,
  type JobHandle,
  type JobState,
  nextStage,
  PostInput,
  QaEvidenceInput,
  type Run,
  type RunState,
  STAGES,
  Stage,
  stageIndex,
} from './schema.ts';
import type {
  CompleteResult,
  FailOptions,
  FailResult,
  HeartbeatResult,
  JobQueue,
  RecoverOptions,
  RecoverReport,
  RerunResult,
  StageCompletion,
} from './types.ts';

export interface JobQueueOptions {
  /** Attempts per stage, crashed ones included (default 3). */
  maxAttempts?: number;
  /** Per-stage overrides of maxAttempts. */
  stageAttempts?: Partial<Record<Stage, number>>;
  /** Delay before the second attempt; doubled for each further one (default 2 s). */
  backoffMs?: number;
  /** Longest delay between attempts (default 5 min). */
  maxBackoffMs?: number;
}

/** Largest stage output kept inline; larger ones belong in the evidence store, passed as `ref`. */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

const Options = z.strictObject({
  maxAttempts: z.number().int().min(1).max(100).default(3),
  stageAttempts: z.partialRecord(Stage, z.number().int().min(1).max(100)).default({}),
  backoffMs: z.number().int().nonnegative().default(2_000),
  maxBackoffMs: z.number().int().nonnegative().default(300_000),
});

const WorkerId = z.string().min(1).max(200);
const LeaseMs = z
  .number()
  .int()
  .min(1)
  .max(24 * 3_600_000);
const Handle = z.object({ id: z.string().regex(/^[0-9]+$/), token: z.string().min(1) });

const Completion = z.strictObject({
  output: z.unknown().optional(),
  ref: z.string().min(1).optional(),
  skipped: z.boolean().optional(),
  post: PostInput.optional(),
  next: Stage.nullable().optional(),
});

interface JobRow {
  id: number;
  run_id: string;
  round: number;
  stage: Stage;
  state: JobState;
  attempt: number;
  available_at: number;
  worker: string | null;
  lease_token: string | null;
  lease_expires_at: number | null;
}

const ACTIVE = "state IN ('queued', 'running')";

/**
 * The queue of stages to run, as rows of the runs file. A job is one stage of one run in one
 * round; a run has at most one job queued or running. Claiming leases the job to a worker for
 * `leaseMs`: a worker that dies stops renewing it, and its job becomes claimable again at the
 * same stage. Completing a stage writes its result and queues the next stage in one
 * transaction, so a completed stage is never run again.
 */
export class SqliteJobQueue implements JobQueue {
  private readonly options: z.output<typeof Options>;

  constructor(
    private readonly file: RunsDatabase,
    options: JobQueueOptions = {},
  ) {
    this.options = parseInput(Options, options, 'job queue options');
  }

  /** Attempts a stage gets. */
  maxAttempts(stage: Stage): number {
    return this.options.stageAttempts[stage] ?? this.options.maxAttempts;
  }

  /** Delay after failed attempt `attempt` (1-based): backoffMs · 2^(attempt-1), capped. */
  backoff(attempt: number): number {
    return Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** Math.max(0, attempt - 1));
  }

  async enqueue(runId: string, stage: Stage): Promise<string | null> {
    const s = parseInput(Stage, stage, 'stage');
    return this.file.write('enqueue', () => {
      const run = this.file.requireRun(runId);
      if (FINISHED_STATES.includes(run.state)) {
        throw invalid(
          runId,
          `run "${runId}" is ${run.state}: no stage can be queued (start a re-run instead)`,
        );
      }
      if (this.file.isCompleted(run, s)) return null;
      const active = this.activeJob(runId);
      if (active !== undefined) {
        if (active.stage === s && active.round === run.round) return String(active.id);
        throw invalid(runId, `run "${runId}" already has stage ${active.stage} ${active.state}`);
      }
      const id = this.file.queueJob(runId, run.round, s);
      this.setRunStage(runId, s);
      this.file.event(runId, 'queued', `${s} queued`, { round: run.round });
      return id;
    });
  }

  async claim(workerId: string, leaseMs: number): Promise<Job | null> {
    const worker = parseInput(WorkerId, workerId, 'worker id');
    const lease = parseInput(LeaseMs, leaseMs, 'lease (ms)');
    return this.file.write('claim', () => {
      const now = this.file.now();
      this.release(false);
      for (;;) {
        const row = this.file.db
          .prepare(
            "SELECT * FROM jobs WHERE state = 'queued' AND available_at <= ? ORDER BY available_at, id LIMIT 1",
          )
          .get(now.ms) as JobRow | undefined;
        if (row === undefined) return null;
        const run = this.file.requireRun(row.run_id);
        if (FINISHED_STATES.includes(run.state) || row.round !== run.round) {
          // Left behind by an edit outside this program: never hand out work of a finished run.
          this.setJobState(row.id, 'cancelled', 'run already finished');
          continue;
        }
        const token = randomUUID();
        const expires = now.ms + lease;
        this.file.db
          .prepare(
            `UPDATE jobs SET state = 'running', attempt = attempt + 1, worker = ?, lease_token = ?,
               lease_expires_at = ?, updated_at = ? WHERE id = ?`,
          )
          .run(worker, token, expires, now.iso, row.id);
        this.file.db
          .prepare(
            `UPDATE runs SET state = 'running', stage = ?, started_at = COALESCE(started_at, ?), updated_at = ?
             WHERE id = ?`,
          )
          .run(row.stage, now.iso, now.iso, row.run_id);
        const attempt = row.attempt + 1;
        this.file.db
          .prepare(
            `INSERT INTO stage_results (run_id, round, stage, status, attempt, started_at)
             VALUES (@run_id, @round, @stage, 'running', @attempt, @iso)
             ON CONFLICT (run_id, round, stage) DO UPDATE SET status = 'running', attempt = @attempt,
               output = NULL, output_ref = NULL, started_at = @iso, finished_at = NULL, duration_ms = NULL`,
          )
          .run({ run_id: row.run_id, round: row.round, stage: row.stage, attempt, iso: now.iso });
        this.file.event(row.run_id, 'claimed', `${row.stage} attempt ${attempt} by ${worker}`, {
          round: row.round,
          attempt,
          worker,
        });
        return {
          id: String(row.id),
          token,
          run_id: row.run_id,
          round: row.round,
          stage: row.stage,
          attempt,
          max_attempts: this.maxAttempts(row.stage),
          worker,
          lease_expires_at: new Date(expires).toISOString(),
        };
      }
    });
  }

  async heartbeat(job: JobHandle, leaseMs: number): Promise<HeartbeatResult> {
    const handle = parseInput(Handle, job, 'job');
    const lease = parseInput(LeaseMs, leaseMs, 'lease (ms)');
    return this.file.write('heartbeat', () => {
      const row = this.jobRow(handle.id);
      if (row.lease_token !== handle.token) return 'lost';
      if (row.state === 'cancelled') return 'cancelled';
      if (row.state !== 'running') return 'lost';
      const now = this.file.now();
      this.file.db
        .prepare('UPDATE jobs SET lease_expires_at = ?, updated_at = ? WHERE id = ?')
        .run(now.ms + lease, now.iso, row.id);
      return 'extended';
    });
  }

  async complete(job: JobHandle, result: StageCompletion = {}): Promise<CompleteResult> {
    const handle = parseInput(Handle, job, 'job');
    const done = parseInput(Completion, result, `completion of job ${handle.id}`);
    const output = toJson(done.output, `output of job ${handle.id}`);
    if (output !== null && Buffer.byteLength(output) > MAX_OUTPUT_BYTES) {
      throw invalid(
        `job ${handle.id}`,
        `output of job ${handle.id} is ${Buffer.byteLength(output)} bytes, more than ${MAX_OUTPUT_BYTES}: store it as evidence and pass its id as ref`,
      );
    }
    return this.file.write('complete', () => {
      const row = this.heldJob(handle);
      const run = this.file.requireRun(row.run_id);
      const now = this.file.now();
      const duration = this.elapsed(row, now.ms);
      this.file.db
        .prepare(
          `INSERT INTO stage_results (run_id, round, stage, status, attempt, output, output_ref, started_at,
             finished_at, duration_ms)
           VALUES (@run_id, @round, @stage, @status, @attempt, @output, @ref, @iso, @iso, @duration)
           ON CONFLICT (run_id, round, stage) DO UPDATE SET status = @status, attempt = @attempt,
             output = @output, output_ref = @ref, error = NULL, finished_at = @iso, duration_ms = @duration`,
        )
        .run({
          run_id: row.run_id,
          round: row.round,
          stage: row.stage,
          status: done.skipped ? 'skipped' : 'done',
          attempt: row.attempt,
          output,
          ref: done.ref ?? null,
          iso: now.iso,
          duration,
        });
      if (done.post !== undefined) {
        insertPost(this.file, run, { ...done.post, round: done.post.round ?? row.round });
      }
      this.file.event(row.run_id, 'completed', `${row.stage} ${done.skipped ? 'skipped' : 'done'}`, {
        round: row.round,
        attempt: row.attempt,
        duration_ms: duration,
      });
      if (row.state === 'cancelled') {
        // The run was cancelled while this stage ran: keep what it did, queue nothing.
        this.endCancelled(row);
        return { next: null, cancelled: true, rerun: false };
      }
      this.setJobState(row.id, 'done', null);

      const next = done.next === undefined ? nextStage(row.stage) : done.next;
      if (next !== null && stageIndex(next) <= stageIndex(row.stage)) {
        throw invalid(
          String(next),
          `job ${row.id} (${row.stage}) cannot be followed by ${next}: stages only go forward`,
        );
      }
      const skipTo = next === null ? STAGES.length : stageIndex(next);
      for (const stage of STAGES.slice(stageIndex(row.stage) + 1, skipTo)) {
        this.skip(row.run_id, row.round, stage);
      }
      if (next !== null) {
        this.file.queueJob(row.run_id, row.round, next, now.ms);
        this.setRunStage(row.run_id, next);
        return { next, cancelled: false, rerun: false };
      }
      if (run.rerun_from !== null) {
        const from = this.file.startRound(run, run.rerun_from, 'requested during the previous round');
        return { next: from, cancelled: false, rerun: true };
      }
      this.file.finishRun(row.run_id, 'done', null);
      this.file.event(row.run_id, 'done', `run done (round ${row.round})`);
      return { next: null, cancelled: false, rerun: false };
    });
  }

  async fail(job: JobHandle, error: unknown, options: FailOptions): Promise<FailResult> {
    const handle = parseInput(Handle, job, 'job');
    const retryable = parseInput(
      z.strictObject({ retryable: z.boolean() }),
      options,
      'fail options',
    ).retryable;
    const message = errorText(error);
    return this.file.write('fail', () => {
      const row = this.heldJob(handle);
      const now = this.file.now();
      if (row.state === 'cancelled') {
        this.stageFailed(row, 'failed', message);
        this.endCancelled(row);
        return { retried: false, attempt: row.attempt };
      }
      if (retryable && row.attempt < this.maxAttempts(row.stage)) {
        const available = now.ms + this.backoff(row.attempt);
        this.requeue(row, available, message);
        this.file.event(row.run_id, 'retry', `${row.stage} attempt ${row.attempt} failed: ${message}`, {
          round: row.round,
          attempt: row.attempt,
          available_at: new Date(available).toISOString(),
        });
        return { retried: true, attempt: row.attempt, available_at: new Date(available).toISOString() };
      }
      this.giveUp(row, retryable ? `${message} (after ${row.attempt} attempts)` : message);
      return { retried: false, attempt: row.attempt };
    });
  }

  async recover(options: RecoverOptions = {}): Promise<RecoverReport> {
    const all = parseInput(
      z.strictObject({ releaseAll: z.boolean().optional() }),
      options,
      'recover options',
    ).releaseAll;
    return this.file.write('recover', () => {
      const { released, failed } = this.release(all === true);
      let resumed = 0;
      const stranded = this.file.selectRuns(
        `WHERE state IN ('queued', 'running') AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.run_id = runs.id AND jobs.${ACTIVE})`,
        {},
        'ORDER BY created_at, rowid',
      );
      for (const run of stranded) {
        const stage = this.file.resumeStage(run);
        if (stage === null) {
          this.file.finishRun(run.id, 'done', null);
          this.file.event(run.id, 'recovered', 'every stage had completed: run done');
          continue;
        }
        this.file.queueJob(run.id, run.round, stage);
        this.setRunStage(run.id, stage);
        this.file.event(run.id, 'recovered', `queued again at ${stage}`, { round: run.round });
        resumed++;
      }
      return { released, failed, resumed };
    });
  }

  async depth(): Promise<number> {
    return this.file.read(
      'queue depth',
      () => this.file.db.prepare(`SELECT COUNT(*) FROM jobs WHERE ${ACTIVE}`).pluck().get() as number,
    );
  }

  async supersede(change: number, patchset: number): Promise<string[]> {
    const c = parseInput(z.number().int().positive(), change, 'change');
    const p = parseInput(z.number().int().positive(), patchset, 'patchset');
    return this.file.write('supersede', () => {
      const runs = this.file.selectRuns(
        "WHERE change = @c AND patchset < @p AND state IN ('queued', 'running')",
        { c, p },
        'ORDER BY created_at, rowid',
      );
      for (const run of runs) this.end(run, 'superseded', `superseded by patchset ${p}`);
      return runs.map((r) => r.id);
    });
  }

  async cancel(runId: string, reason = 'cancelled'): Promise<boolean> {
    return this.file.write('cancel', () => {
      const run = this.file.requireRun(runId);
      if (FINISHED_STATES.includes(run.state)) return false;
      this.end(run, 'cancelled', String(reason));
      return true;
    });
  }

  async rerun(runId: string, from: Stage, evidence?: QaEvidenceInput): Promise<RerunResult> {
    const stage = parseInput(Stage, from, 'stage');
    const added = evidence === undefined ? undefined : parseInput(QaEvidenceInput, evidence, 'QA evidence');
    return this.file.write('rerun', () => {
      const run = this.file.requireRun(runId);
      if (run.state === 'cancelled' || run.state === 'superseded') {
        throw invalid(runId, `run "${runId}" is ${run.state}: it cannot be re-run`);
      }
      const evidenceAdded = added === undefined ? false : insertEvidence(this.file, runId, added);
      if (run.state === 'done' || run.state === 'failed') {
        const start = this.file.startRound(run, stage, 'QA re-run');
        return { round: run.round + 1, from: start, started: true, evidence_added: evidenceAdded };
      }
      // In progress: a round that has not begun `from` yet will read the new evidence itself.
      if (run.stage !== null && stageIndex(run.stage) < stageIndex(stage) && run.rerun_from === null) {
        return { round: run.round, from: stage, started: false, evidence_added: evidenceAdded };
      }
      const pending =
        run.rerun_from !== null && stageIndex(run.rerun_from) < stageIndex(stage) ? run.rerun_from : stage;
      this.file.db
        .prepare('UPDATE runs SET rerun_from = ?, updated_at = ? WHERE id = ?')
        .run(pending, this.file.now().iso, runId);
      this.file.event(runId, 'rerun_requested', `re-run from ${pending} after round ${run.round}`);
      return { round: run.round + 1, from: pending, started: false, evidence_added: evidenceAdded };
    });
  }

  // ---- inside write() ----

  private jobRow(id: string): JobRow {
    const row = this.file.db.prepare('SELECT * FROM jobs WHERE id = ?').get(Number(id)) as JobRow | undefined;
    if (row === undefined) throw invalid(id, `job ${id} is not in the queue`);
    return row;
  }

  /** The job, if this handle still holds it (running, or cancelled while it ran). */
  private heldJob(handle: JobHandle): JobRow {
    const row = this.jobRow(handle.id);
    if (row.lease_token === handle.token && (row.state === 'running' || row.state === 'cancelled'))
      return row;
    throw new LeaseLostError(
      handle.id,
      row.lease_token !== null && row.lease_token !== handle.token
        ? 'its lease passed to another worker'
        : `it is ${row.state}`,
    );
  }

  /** A cancelled job's worker has reported: the job is over. */
  private endCancelled(row: JobRow): void {
    this.file.db
      .prepare('UPDATE jobs SET lease_token = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ?')
      .run(this.file.now().iso, row.id);
  }

  private activeJob(runId: string): JobRow | undefined {
    return this.file.db.prepare(`SELECT * FROM jobs WHERE run_id = ? AND ${ACTIVE}`).get(runId) as
      | JobRow
      | undefined;
  }

  private setJobState(id: number, state: JobState, error: string | null): void {
    this.file.db
      .prepare(
        `UPDATE jobs SET state = ?, error = COALESCE(?, error), lease_token = NULL, lease_expires_at = NULL,
           updated_at = ? WHERE id = ?`,
      )
      .run(state, error, this.file.now().iso, id);
  }

  private setRunStage(runId: string, stage: Stage): void {
    this.file.db
      .prepare('UPDATE runs SET stage = ?, updated_at = ? WHERE id = ?')
      .run(stage, this.file.now().iso, runId);
  }

  private skip(runId: string, round: number, stage: Stage): void {
    this.file.db
      .prepare(
        `INSERT OR REPLACE INTO stage_results (run_id, round, stage, status, attempt, finished_at)
         VALUES (?, ?, ?, 'skipped', 0, ?)`,
      )
      .run(runId, round, stage, this.file.now().iso);
  }

  private stageFailed(row: JobRow, status: 'waiting_retry' | 'failed', message: string): void {
    const now = this.file.now();
    this.file.db
      .prepare(
        `UPDATE stage_results SET status = @status, error = @message, finished_at = @iso, duration_ms = @duration
         WHERE run_id = @run_id AND round = @round AND stage = @stage`,
      )
      .run({
        status,
        message,
        iso: now.iso,
        duration: this.elapsed(row, now.ms),
        run_id: row.run_id,
        round: row.round,
        stage: row.stage,
      });
  }

  /** Milliseconds since the job's current attempt started, if it did. */
  private elapsed(row: JobRow, nowMs: number): number | null {
    const started = this.file.db
      .prepare('SELECT started_at FROM stage_results WHERE run_id = ? AND round = ? AND stage = ?')
      .pluck()
      .get(row.run_id, row.round, row.stage) as string | null | undefined;
    return started == null ? null : Math.max(0, nowMs - Date.parse(started));
  }

  /** The job waits for `availableMs`, at the same stage; its attempts so far still count. */
  private requeue(row: JobRow, availableMs: number, message: string): void {
    this.file.db
      .prepare(
        `UPDATE jobs SET state = 'queued', available_at = ?, worker = NULL, lease_token = NULL,
           lease_expires_at = NULL, error = ?, updated_at = ? WHERE id = ?`,
      )
      .run(availableMs, message, this.file.now().iso, row.id);
    this.stageFailed(row, 'waiting_retry', message);
  }

  /** The stage is out of attempts: the run fails, unless a re-run was asked for meanwhile. */
  private giveUp(row: JobRow, message: string): void {
    this.setJobState(row.id, 'failed', message);
    this.stageFailed(row, 'failed', message);
    const error = `${row.stage}: ${message}`;
    this.file.finishRun(row.run_id, 'failed', error);
    this.file.event(row.run_id, 'failed', error, { round: row.round, attempt: row.attempt });
    const run = this.file.requireRun(row.run_id);
    if (run.rerun_from !== null)
      this.file.startRound(run, run.rerun_from, 'requested during the failed round');
  }

  /**
   * Running jobs whose lease expired (or all, at a single-process start-up) become claimable at
   * the same stage; one whose worker was lost on its last attempt fails its run.
   */
  private release(all: boolean): { released: number; failed: number } {
    const now = this.file.now();
    const rows = this.file.db
      .prepare(
        all
          ? "SELECT * FROM jobs WHERE state = 'running'"
          : "SELECT * FROM jobs WHERE state = 'running' AND lease_expires_at <= ?",
      )
      .all(...(all ? [] : [now.ms])) as JobRow[];
    let released = 0;
    let failed = 0;
    for (const row of rows) {
      const lost = `worker ${row.worker ?? '?'} lost (lease ended)`;
      if (row.attempt >= this.maxAttempts(row.stage)) {
        this.giveUp(row, `${lost} on attempt ${row.attempt} of ${this.maxAttempts(row.stage)}`);
        failed++;
      } else {
        this.requeue(row, now.ms, lost);
        this.file.event(row.run_id, 'recovered', `${row.stage} claimable again: ${lost}`, {
          round: row.round,
          attempt: row.attempt,
        });
        released++;
      }
    }
    // A cancelled run's worker that died before reporting: its stage ends as failed.
    const orphans = this.file.db
      .prepare(
        "SELECT * FROM jobs WHERE state = 'cancelled' AND lease_token IS NOT NULL AND lease_expires_at <= ?",
      )
      .all(all ? Number.MAX_SAFE_INTEGER : now.ms) as JobRow[];
    for (const row of orphans) {
      this.stageFailed(row, 'failed', `cancelled; worker ${row.worker ?? '?'} lost`);
      this.endCancelled(row);
    }
    return { released, failed };
  }

  /** Cancels or supersedes a run: its queued and running jobs end; a running worker is told so. */
  private end(run: Run, state: Extract<RunState, 'cancelled' | 'superseded'>, reason: string): void {
    const now = this.file.now();
    // A running job keeps its token, so its worker can still record what it did (complete).
    this.file.db
      .prepare(
        `UPDATE jobs SET state = 'cancelled', error = ?, updated_at = ? WHERE run_id = ? AND ${ACTIVE}`,
      )
      .run(reason, now.iso, run.id);
    this.file.db
      .prepare(
        `UPDATE stage_results SET status = 'failed', error = ?, finished_at = ?
         WHERE run_id = ? AND round = ? AND status = 'waiting_retry'`,
      )
      .run(reason, now.iso, run.id, run.round);
    this.file.finishRun(run.id, state, reason);
    this.file.event(run.id, state, reason);
  }
}

/** The text stored for a failure: the coded error's code and message. */
function errorText(error: unknown): string {
  if (error instanceof DiagnosisError) return `${error.code}: ${error.message}`;
  return describeError(error);
}
