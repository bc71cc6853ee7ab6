import type {
  Job,
  JobHandle,
  PostInput,
  PostRecord,
  QaEvidence,
  QaEvidenceInput,
  Run,
  RunEvent,
  RunRequestInput,
  RunState,
  Stage,
  StageResult,
} from './schema.ts';

/**
 * The two interfaces the service and the stages use. They are async so that a later scale-out
 * can put them on a distributed engine; the SQLite implementations share one file, which is
 * what makes "record the result and enqueue the next stage" one transaction.
 */

export interface CreateRunOptions {
  /** Run id to use (default: generated, time-ordered). */
  id?: string;
  /** Idempotency key (default: `project~change~patchset-or-revision~report_url`). */
  key?: string;
}

export interface CreateRunResult {
  run: Run;
  /** False when a run with the same idempotency key already existed: that run is returned. */
  created: boolean;
}

export interface ListRunsQuery {
  project?: string;
  change?: number;
  patchset?: number;
  state?: RunState | readonly RunState[];
  /** At most 500; default 50. */
  limit?: number;
  offset?: number;
}

export interface RunPage {
  /** Newest first. */
  runs: Run[];
  /** All runs matching the query, for paging. */
  total: number;
}

export interface LatestRunQuery {
  change: number;
  patchset?: number;
  project?: string;
}

/** One stage's duration histogram over its done results (the successful attempt's wall time). */
export interface StageDurations {
  stage: Stage;
  count: number;
  sum_ms: number;
  /** Cumulative counts, Prometheus style: runs with duration ≤ `le` ms; the last is +Inf. */
  buckets: { le: number; count: number }[];
}

export const DEFAULT_DURATION_BUCKETS_MS: readonly number[] = [
  100, 500, 1_000, 5_000, 10_000, 30_000, 60_000, 300_000,
];

export interface RunStore {
  /** Creates a run and queues its first stage, atomically; idempotent by key. */
  create(request: RunRequestInput, options?: CreateRunOptions): Promise<CreateRunResult>;
  find(id: string): Promise<Run | null>;
  /** Like find, but a missing run is an INVALID_ARGUMENT error naming the id. */
  get(id: string): Promise<Run>;
  list(query?: ListRunsQuery): Promise<RunPage>;
  /** The newest run of a change (of one patchset, when given). */
  latest(query: LatestRunQuery): Promise<Run | null>;
  /** Every stage result of every round, in round then stage order. */
  stages(runId: string): Promise<StageResult[]>;
  /** The stage's latest done (or skipped) result across rounds: a later stage's input. */
  output(runId: string, stage: Stage): Promise<StageResult | null>;
  /** Records a post (idempotent per run, round and digest); true when new. */
  recordPost(runId: string, post: PostInput): Promise<boolean>;
  posts(runId: string): Promise<PostRecord[]>;
  /** Records QA evidence without starting a re-run (see JobQueue.rerun); true when new. */
  addEvidence(runId: string, evidence: QaEvidenceInput): Promise<boolean>;
  evidence(runId: string): Promise<QaEvidence[]>;
  log(runId: string, kind: string, message: string, data?: unknown): Promise<void>;
  /** Oldest first; the last `limit` (default 200). */
  events(runId: string, limit?: number): Promise<RunEvent[]>;
  /** Every state, zero included (for /metrics). */
  countsByState(): Promise<Record<RunState, number>>;
  stageDurations(bucketsMs?: readonly number[]): Promise<StageDurations[]>;
}

export interface StageCompletion {
  /** The stage's output, stored as JSON. */
  output?: unknown;
  /** Or where it lives (an evidence id, a file). */
  ref?: string;
  /** The stage did nothing (e.g. publish in a dry run); recorded as skipped. */
  skipped?: boolean;
  /** The post the publish stage made, recorded in the same transaction. */
  post?: PostInput;
  /**
   * undefined: the stage after this one (the run is done after the last);
   * a later stage: jump there, the stages between are recorded as skipped;
   * null: the run is done now, the remaining stages are recorded as skipped.
   */
  next?: Stage | null;
}

export interface CompleteResult {
  /** The stage queued next, or null when the run ended (done, or cancelled meanwhile). */
  next: Stage | null;
  /** The run was cancelled or superseded while this stage ran: the result is kept, nothing follows. */
  cancelled: boolean;
  /** A re-run requested during the round started instead of the run finishing. */
  rerun: boolean;
}

export interface FailOptions {
  /** A transient error: try again after a backoff, up to the stage's attempts. */
  retryable: boolean;
}

export type FailResult =
  | { retried: true; attempt: number; available_at: string }
  /** The run failed (or was already cancelled). */
  | { retried: false; attempt: number };

export type HeartbeatResult =
  | 'extended'
  /** The run was cancelled or superseded: stop working on it (complete still records the result). */
  | 'cancelled'
  /** The lease expired and another worker holds the job: stop, the result would be refused. */
  | 'lost';

export interface RecoverOptions {
  /**
   * Release every running job, expired or not: only for a single-process service at start-up,
   * when no other worker can be holding a lease.
   */
  releaseAll?: boolean;
}

export interface RecoverReport {
  /** Jobs whose worker was gone, claimable again at the same stage. */
  released: number;
  /** Jobs whose worker was lost too often: their runs failed. */
  failed: number;
  /** Unfinished runs without a job, queued again at the stage after their last completed one. */
  resumed: number;
}

export interface RerunResult {
  /** The round that will run the re-diagnosis. */
  round: number;
  /** The stage it starts at (earlier, when an earlier stage never completed). */
  from: Stage;
  /** False when the run is in progress: the re-run starts when the current round ends. */
  started: boolean;
  /** False when the evidence given was already recorded for this run. */
  evidence_added: boolean;
}

export interface JobQueue {
  /**
   * Queues a stage of an unfinished run (creating the run queues its first stage already).
   * Returns the job's id, or null when the stage already completed in this round.
   */
  enqueue(runId: string, stage: Stage): Promise<string | null>;
  /** Leases the oldest available job (also one whose lease expired), atomically; null if none. */
  claim(workerId: string, leaseMs: number): Promise<Job | null>;
  heartbeat(job: JobHandle, leaseMs: number): Promise<HeartbeatResult>;
  /** Records the stage result and queues the next stage in one transaction; LeaseLostError if lost. */
  complete(job: JobHandle, result?: StageCompletion): Promise<CompleteResult>;
  /** Retries with exponential backoff, or fails the run after the last attempt. */
  fail(job: JobHandle, error: unknown, options: FailOptions): Promise<FailResult>;
  /** At start-up: crashed workers' jobs become claimable, stranded runs are queued again. */
  recover(options?: RecoverOptions): Promise<RecoverReport>;
  /** Jobs queued or running: the HTTP layer answers 429 when this reaches its limit. */
  depth(): Promise<number>;
  /** Cancels unfinished runs of earlier patchsets of the change; returns their ids. */
  supersede(change: number, patchset: number): Promise<string[]>;
  /** Cancels an unfinished run; false when it had already finished. */
  cancel(runId: string, reason?: string): Promise<boolean>;
  /** A new round from `from` (QA evidence), recording the evidence in the same transaction. */
  rerun(runId: string, from: Stage, evidence?: QaEvidenceInput): Promise<RerunResult>;
}

export interface RunStorage {
  runs: RunStore;
  queue: JobQueue;
  close(): void;
}
