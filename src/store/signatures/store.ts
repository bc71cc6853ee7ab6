import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../../errors/index.ts';
import { type Occurrences, SignatureEntry } from './schema.ts';

export const SIGNATURES_FILE = 'signatures.sqlite';
export const IN_MEMORY = ':memory:';

/** Rows a query returns at most; totals still count every row. */
export const DEFAULT_QUERY_LIMIT = 20;

/** Applied in order; `PRAGMA user_version` records how many ran, so reopening is cheap and safe. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS outcomes (
     run_id TEXT NOT NULL, test_key TEXT NOT NULL, signature TEXT,
     project TEXT NOT NULL, branch TEXT NOT NULL, change INTEGER, patchset INTEGER,
     revision TEXT NOT NULL, outcome TEXT NOT NULL CHECK (outcome IN ('failed', 'passed')),
     seen_at TEXT NOT NULL,
     PRIMARY KEY (run_id, test_key))`,
  // The two lookups triage makes per failure: by signature, and by test at one revision.
  `CREATE INDEX IF NOT EXISTS outcomes_by_signature ON outcomes (project, signature);
   CREATE INDEX IF NOT EXISTS outcomes_by_test_revision ON outcomes (project, test_key, revision)`,
];

const COLUMNS = 'signature, test_key, project, branch, change, patchset, revision, outcome, run_id, seen_at';

export interface MainlineQuery {
  signature: string;
  project: string;
  branch: string;
  /** The revision under diagnosis: a mainline run of it is this change merged, not "without it". */
  excludeRevision?: string;
  excludeRunId?: string;
  limit?: number;
}

export interface OtherChangesQuery {
  signature: string;
  project: string;
  /** The change under diagnosis (all its patchsets are left out); null for a mainline run. */
  change: number | null;
  excludeRunId?: string;
  limit?: number;
}

export interface OutcomesQuery {
  project: string;
  test_key: string;
  revision: string;
}

/**
 * Every failure signature seen, with its change, patchset, branch and outcome, so triage can ask
 * "does this failure happen without this change?" and "does this test flip at one revision?".
 * One row per (run, test): recording a run twice changes nothing.
 */
export class SignatureStore {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly insertMany: (entries: readonly SignatureEntry[]) => number;

  /** `dir` holds `signatures.sqlite` (created if missing); `:memory:` keeps nothing on disk. */
  constructor(dir: string) {
    this.path = dir === IN_MEMORY ? IN_MEMORY : join(dir, SIGNATURES_FILE);
    this.db = guard(this.path, 'open', () => {
      if (dir !== IN_MEMORY) mkdirSync(dir, { recursive: true });
      const db = new Database(this.path);
      // WAL: the HTTP service reads history while a CLI feeds reports into the same file.
      db.pragma('journal_mode = WAL');
      // History is re-derivable from the reports: a lost last row on power loss is acceptable.
      db.pragma('synchronous = NORMAL');
      return db;
    });
    try {
      this.migrate();
    } catch (err: unknown) {
      this.db.close();
      throw err;
    }
    this.insert = this.db.prepare(
      `INSERT OR IGNORE INTO outcomes (${COLUMNS})
       VALUES (@signature, @test_key, @project, @branch, @change, @patchset, @revision, @outcome, @run_id, @seen_at)`,
    );
    this.insertMany = this.db.transaction((entries: readonly SignatureEntry[]) => {
      let added = 0;
      for (const entry of entries) added += this.insert.run(entry).changes;
      return added;
    });
  }

  /** Records one outcome; false when the run already has this test (the first record stays). */
  record(entry: SignatureEntry): boolean {
    return this.recordAll([entry]) === 1;
  }

  /** Records outcomes in one transaction; returns how many were new. */
  recordAll(entries: readonly SignatureEntry[]): number {
    const checked = entries.map(validEntry);
    return guard(this.path, 'write', () => this.insertMany(checked));
  }

  /** Failures with this signature on the branch itself (change null), other runs and revisions. */
  mainlineOccurrences(q: MainlineQuery): Occurrences {
    const where = [
      "outcome = 'failed'",
      'project = @project',
      'signature = @signature',
      'change IS NULL',
      'branch = @branch',
      ...(q.excludeRevision === undefined ? [] : ['revision <> @excludeRevision']),
      ...(q.excludeRunId === undefined ? [] : ['run_id <> @excludeRunId']),
    ];
    return this.occurrences(where.join(' AND '), q);
  }

  /**
   * Failures with this signature on changes other than the given one, on any branch of the
   * project: an unrelated change failing the same way shows the failure is not this change's.
   */
  otherChangeOccurrences(q: OtherChangesQuery): Occurrences {
    const where = [
      "outcome = 'failed'",
      'project = @project',
      'signature = @signature',
      'change IS NOT NULL',
      ...(q.change === null ? [] : ['change <> @change']),
      ...(q.excludeRunId === undefined ? [] : ['run_id <> @excludeRunId']),
    ];
    return this.occurrences(where.join(' AND '), q);
  }

  /** Every recorded outcome of one test at one revision, latest first (for pass/fail flips). */
  outcomesAt(q: OutcomesQuery): SignatureEntry[] {
    return guard(this.path, 'read', () =>
      this.db
        .prepare(
          `SELECT ${COLUMNS} FROM outcomes
           WHERE project = @project AND test_key = @test_key AND revision = @revision
           ORDER BY seen_at DESC, run_id`,
        )
        .all(q)
        .map(rowEntry),
    );
  }

  close(): void {
    this.db.close();
  }

  private occurrences(where: string, q: MainlineQuery | OtherChangesQuery): Occurrences {
    // better-sqlite3 rejects named parameters the SQL does not use, and undefined values.
    const params = Object.fromEntries(Object.entries(q).filter(([k, v]) => k !== 'limit' && v !== undefined));
    return guard(this.path, 'read', () => {
      const counts = this.db
        .prepare(`SELECT COUNT(*) AS total, COUNT(DISTINCT change) AS changes FROM outcomes WHERE ${where}`)
        .get(params) as { total: number; changes: number };
      const latest = this.db
        .prepare(`SELECT ${COLUMNS} FROM outcomes WHERE ${where} ORDER BY seen_at DESC, run_id LIMIT @limit`)
        .all({ ...params, limit: q.limit ?? DEFAULT_QUERY_LIMIT })
        .map(rowEntry);
      return { total: counts.total, changes: counts.changes, latest };
    });
  }

  private migrate(): void {
    const applied = this.db.pragma('user_version', { simple: true }) as number;
    if (applied > MIGRATIONS.length) {
      throw new DiagnosisError(
        'STORE_ERROR',
        `signature store ${this.path} has schema version ${applied}, newer than this program's ${MIGRATIONS.length}`,
        { input: this.path },
      );
    }
    guard(this.path, 'migrate', () =>
      this.db.transaction(() => {
        for (const sql of MIGRATIONS.slice(applied)) this.db.exec(sql);
        this.db.pragma(`user_version = ${MIGRATIONS.length}`);
      })(),
    );
  }
}

function validEntry(entry: SignatureEntry): SignatureEntry {
  const parsed = SignatureEntry.safeParse(entry);
  if (parsed.success) return parsed.data;
  const where = `run ${String(entry?.run_id)}, test ${String(entry?.test_key)}`;
  throw new DiagnosisError(
    'INVALID_ARGUMENT',
    `signature entry (${where}) is invalid: ${z.prettifyError(parsed.error)}`,
    {
      input: where,
    },
  );
}

/** Rows come back typed by our own schema; a mismatch means the file was edited by hand. */
function rowEntry(row: unknown): SignatureEntry {
  return SignatureEntry.parse(row);
}

/** SQLite errors become coded errors that name the file and what was being done. */
function guard<T>(path: string, action: string, run: () => T): T {
  try {
    return run();
  } catch (err: unknown) {
    if (err instanceof DiagnosisError) throw err;
    throw new DiagnosisError(
      'STORE_ERROR',
      `signature store ${path}: ${action} failed: ${describeError(err)}`,
      {
        input: path,
        cause: err,
      },
    );
  }
}
