import { RunsDatabase, type RunsDatabaseOptions } from './database.ts';
import { type JobQueueOptions, SqliteJobQueue } from './job-queue.ts';
import { SqliteRunStore } from './run-store.ts';
import type { RunStorage } from './types.ts';

export { IN_MEMORY, MIGRATIONS, RUNS_FILE, RunsDatabase, type RunsDatabaseOptions } from './database.ts';
export { LeaseLostError } from './errors.ts';
export { type JobQueueOptions, MAX_OUTPUT_BYTES, SqliteJobQueue } from './job-queue.ts';
export { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, newRunId, SqliteRunStore } from './run-store.ts';
export * from './schema.ts';
export * from './types.ts';

export interface SqliteRunStorageOptions extends RunsDatabaseOptions, JobQueueOptions {}

export interface SqliteRunStorage extends RunStorage {
  runs: SqliteRunStore;
  queue: SqliteJobQueue;
  /** The runs file (`:memory:` for an in-memory store). */
  path: string;
}

/** The run store and job queue on one SQLite file in `dir` (`:memory:` keeps nothing on disk). */
export function openRunStorage(dir: string, options: SqliteRunStorageOptions = {}): SqliteRunStorage {
  const { clock, busyTimeoutMs, ...queueOptions } = options;
  const file = new RunsDatabase(dir, { clock, busyTimeoutMs });
  try {
    return {
      runs: new SqliteRunStore(file),
      queue: new SqliteJobQueue(file, queueOptions),
      path: file.path,
      close: () => file.close(),
    };
  } catch (err: unknown) {
    file.close();
    throw err;
  }
}
