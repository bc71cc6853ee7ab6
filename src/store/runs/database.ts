import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DiagnosisError, describeError } from '../../errors/index.ts';
import { invalid } from './errors.ts';
import { Run, RunId, type RunState, STAGES, type Stage, stageIndex } from './schema.ts';

export const RUNS_FILE = 'runs.sqlite';
export const IN_MEMORY = ':memory:';

const RUN_STATES = "'queued', 'running', 'done', 'failed', 'superseded', 'cancelled'";
const STAGE_STATUSES = "'running', 'waiting_retry', 'done', 'skipped', 'failed'";
const JOB_STATES = "'queued', 'running', 'done', 'failed', 'cancelled'";

/**
 * Applied in order; `PRAGMA user_version` records how many ran, so reopening is cheap and safe,
 * and a file written by a newer program (more migrations than these) is refused.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: runs, their stage results, and the queue.
  `CREATE TABLE IF NOT EXISTS runs (
     id TEXT PRIMARY KEY, key TEXT NOT NULL UNIQUE,
     state TEXT NOT NULL CHECK (state IN (${RUN_STATES})),
     stage TEXT, round INTEGER NOT NULL DEFAULT 1, round_from TEXT NOT NULL DEFAULT 'scrape', rerun_from TEXT,
     project TEXT, change INTEGER, patchset INTEGER, revision TEXT, request TEXT NOT NULL, error TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL, started_at TEXT, finished_at TEXT);
   CREATE INDEX IF NOT EXISTS runs_by_change ON runs (change, patchset, created_at);
   CREATE INDEX IF NOT EXISTS runs_by_state ON runs (state, created_at);
   CREATE TABLE IF NOT EXISTS stage_results (
     run_id TEXT NOT NULL REFERENCES runs (id), round INTEGER NOT NULL, stage TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN (${STAGE_STATUSES})), attempt INTEGER NOT NULL,
     output TEXT, output_ref TEXT, error TEXT, started_at TEXT, finished_at TEXT, duration_ms INTEGER,
     PRIMARY KEY (run_id, round, stage));
   CREATE TABLE IF NOT EXISTS jobs (
     id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs (id),
     round INTEGER NOT NULL, stage TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN (${JOB_STATES})),
     attempt INTEGER NOT NULL DEFAULT 0, available_at INTEGER NOT NULL,
     worker TEXT, lease_token TEXT, lease_expires_at INTEGER, error TEXT,
     created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
     UNIQUE (run_id, round, stage));
   CREATE INDEX IF NOT EXISTS jobs_queued ON jobs (available_at, id) WHERE state = 'queued';
   CREATE INDEX IF NOT EXISTS jobs_leased ON jobs (lease_expires_at) WHERE state = 'running'`,
  // 2: posts, QA evidence, the run log, and the index /metrics reads.
  `CREATE TABLE IF NOT EXISTS posts (
     id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs (id),
     round INTEGER NOT NULL, digest TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('posted', 'already_posted', 'unchanged')),
     message_id TEXT, at TEXT NOT NULL, UNIQUE (run_id, round, digest));
   CREATE TABLE IF NOT EXISTS qa_evidence (
     id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs (id),
     evidence_id TEXT NOT NULL, kind TEXT NOT NULL, note TEXT, round INTEGER, at TEXT NOT NULL,
     UNIQUE (run_id, evidence_id));
   CREATE TABLE IF NOT EXISTS run_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs (id),
     at TEXT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, data TEXT);
   CREATE INDEX IF NOT EXISTS run_events_by_run ON run_events (run_id, id);
   CREATE INDEX IF NOT EXISTS stage_results_by_stage ON stage_results (stage, status)`,
];

export interface RunsDatabaseOptions {
  /** Injected for tests: leases, backoff and timestamps read it. */
  clock?: () => Date;
  /** How long a writer waits for another connection's transaction (default 5 s). */
  busyTimeoutMs?: number;
}

export interface Now {
  iso: string;
  ms: number;
}

const RUN_COLUMNS =
  'id, key, state, stage, round, round_from, rerun_from, request, error, created_at, updated_at, started_at, finished_at';

/**
 * The runs file, shared by the run store and the job queue: one connection, so a stage result
 * and the next stage's job are written in one transaction. Several connections (processes) may
 * open the same file; every write is a `BEGIN IMMEDIATE` transaction, so they take turns.
 */
export class RunsDatabase {
  readonly path: string;
  readonly db: Database.Database;
  private readonly clock: () => Date;

  /** `dir` holds `runs.sqlite` (created if missing); `:memory:` keeps nothing on disk. */
  constructor(dir: string, options: RunsDatabaseOptions = {}) {
    this.path = dir === IN_MEMORY ? IN_MEMORY : join(dir, RUNS_FILE);
    this.clock = options.clock ?? (() => new Date());
    this.db = guard(this.path, 'open', () => {
      if (dir !== IN_MEMORY) mkdirSync(dir, { recursive: true });
      const db = new Database(this.path, { timeout: options.busyTimeoutMs ?? 5_000 });
      try {
        // WAL: the HTTP layer reads while workers write, and writers in other processes wait.
        db.pragma('journal_mode = WAL');
        // Runs are not re-derivable (a run accepted with 202 must survive a power cut): FULL.
        db.pragma('synchronous = FULL');
        db.pragma('foreign_keys = ON');
      } catch (err: unknown) {
        db.close();
        throw err;
      }
      return db;
    });
    try {
      this.migrate();
    } catch (err: unknown) {
      this.db.close();
      throw err;
    }
  }

  now(): Now {
    const date = this.clock();
    return { iso: date.toISOString(), ms: date.getTime() };
  }

  read<T>(action: string, run: () => T): T {
    return guard(this.path, action, run);
  }

  /** One IMMEDIATE transaction: all of it is written, or none of it (the error is rethrown). */
  write<T>(action: string, run: () => T): T {
    return guard(this.path, action, () => this.db.transaction(run).immediate());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- helpers shared by the run store and the queue; call them inside write() ----

  findRun(id: string): Run | null {
    const row = this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).get(id);
    return row === undefined ? null : runFromRow(row);
  }

  requireRun(id: string): Run {
    if (!RunId.safeParse(id).success)
      throw invalid(String(id), `run id "${String(id)}" is not a valid run id`);
    const run = this.findRun(id);
    if (run === null)
      throw new DiagnosisError('RUN_NOT_FOUND', `run "${id}" is not in the store`, { input: id });
    return run;
  }

  selectRuns(where: string, params: Record<string, unknown>, tail = ''): Run[] {
    return this.db.prepare(`SELECT ${RUN_COLUMNS} FROM runs ${where} ${tail}`).all(params).map(runFromRow);
  }

  event(runId: string, kind: string, message: string, data: unknown = null): void {
    this.db
      .prepare('INSERT INTO run_events (run_id, at, kind, message, data) VALUES (?, ?, ?, ?, ?)')
      .run(runId, this.now().iso, kind, message, data === null ? null : JSON.stringify(data));
  }

  /**
   * Queues (run, round, stage): a new job, or the existing row made claimable again. Returns
   * the job id. Callers have checked the stage is not completed in this round.
   */
  queueJob(runId: string, round: number, stage: Stage, availableMs = this.now().ms): string {
    const now = this.now();
    const row = this.db
      .prepare(
        `INSERT INTO jobs (run_id, round, stage, state, available_at, created_at, updated_at)
         VALUES (@runId, @round, @stage, 'queued', @available, @iso, @iso)
         ON CONFLICT (run_id, round, stage) DO UPDATE SET
           state = 'queued', available_at = @available, worker = NULL, lease_token = NULL,
           lease_expires_at = NULL, updated_at = @iso
         RETURNING id`,
      )
      .get({ runId, round, stage, available: availableMs, iso: now.iso }) as { id: number };
    return String(row.id);
  }

  /** Stages with a done or skipped result, and the rounds they have one in. */
  completedStages(runId: string): Map<Stage, Set<number>> {
    const rows = this.db
      .prepare("SELECT stage, round FROM stage_results WHERE run_id = ? AND status IN ('done', 'skipped')")
      .all(runId) as { stage: Stage; round: number }[];
    const done = new Map<Stage, Set<number>>();
    for (const { stage, round } of rows) {
      const rounds = done.get(stage) ?? new Set<number>();
      rounds.add(round);
      done.set(stage, rounds);
    }
    return done;
  }

  /** Whether the stage's result counts for the run's current round. */
  isCompleted(run: Run, stage: Stage, done = this.completedStages(run.id)): boolean {
    const rounds = done.get(stage);
    if (rounds === undefined) return false;
    // Before the round's first stage, a result of any earlier round is this round's input.
    return stageIndex(stage) < stageIndex(run.round_from) ? rounds.size > 0 : rounds.has(run.round);
  }

  /** The stage after the run's last completed one in this round; null when all are complete. */
  resumeStage(run: Run): Stage | null {
    const done = this.completedStages(run.id);
    return STAGES.find((stage) => !this.isCompleted(run, stage, done)) ?? null;
  }

  /**
   * A new round of a done or failed run (or one whose round just ended) from `from`, or from an
   * earlier stage that never completed: a stage's input must exist. Returns the stage queued.
   */
  startRound(run: Run, from: Stage, reason: string): Stage {
    const done = this.completedStages(run.id);
    const missing = STAGES.find((stage) => !done.has(stage)) ?? from;
    const start = stageIndex(missing) < stageIndex(from) ? missing : from;
    const round = run.round + 1;
    const now = this.now();
    this.db
      .prepare(
        `UPDATE runs SET state = 'queued', stage = @start, round = @round, round_from = @start,
           rerun_from = NULL, error = NULL, finished_at = NULL, updated_at = @iso WHERE id = @id`,
      )
      .run({ id: run.id, start, round, iso: now.iso });
    this.queueJob(run.id, round, start, now.ms);
    this.db.prepare('UPDATE qa_evidence SET round = ? WHERE run_id = ? AND round IS NULL').run(round, run.id);
    this.event(run.id, 'rerun', `round ${round} from ${start}: ${reason}`, { round, from: start });
    return start;
  }

  /** Ends a run: done, failed, cancelled or superseded. */
  finishRun(runId: string, state: RunState, error: string | null): void {
    const now = this.now();
    this.db
      .prepare(
        `UPDATE runs SET state = ?, error = ?, rerun_from = CASE WHEN ? IN ('cancelled', 'superseded') THEN NULL ELSE rerun_from END,
           finished_at = ?, updated_at = ? WHERE id = ?`,
      )
      .run(state, error, state, now.iso, now.iso, runId);
  }

  private migrate(): void {
    guard(this.path, 'migrate', () =>
      // IMMEDIATE: two processes opening a new file do not both migrate it.
      this.db
        .transaction(() => {
          const applied = this.db.pragma('user_version', { simple: true }) as number;
          if (applied > MIGRATIONS.length) {
            throw new DiagnosisError(
              'STORE_ERROR',
              `run store ${this.path} has schema version ${applied}, newer than this program's ${MIGRATIONS.length}`,
              { input: this.path },
            );
          }
          for (const sql of MIGRATIONS.slice(applied)) this.db.exec(sql);
          if (applied < MIGRATIONS.length) this.db.pragma(`user_version = ${MIGRATIONS.length}`);
        })
        .immediate(),
    );
  }
}

function runFromRow(row: unknown): Run {
  const r = row as Record<string, unknown>;
  return Run.parse({ ...r, request: JSON.parse(r.request as string) });
}

/** Stores a caller's value as JSON; a value JSON cannot hold is an error naming it. */
export function toJson(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err: unknown) {
    throw invalid(what, `${what} cannot be stored as JSON: ${describeError(err)}`);
  }
  if (text === undefined) throw invalid(what, `${what} cannot be stored as JSON (${typeof value})`);
  return text;
}

export function fromJson(text: unknown): unknown {
  return typeof text === 'string' ? JSON.parse(text) : null;
}

/** SQLite errors become coded errors that name the file and what was being done. */
export function guard<T>(path: string, action: string, run: () => T): T {
  try {
    return run();
  } catch (err: unknown) {
    if (err instanceof DiagnosisError) throw err;
    throw new DiagnosisError('STORE_ERROR', `run store ${path}: ${action} failed: ${describeError(err)}`, {
      input: path,
      cause: err,
    });
  }
}
