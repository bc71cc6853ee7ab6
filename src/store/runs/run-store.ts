import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { fromJson, type RunsDatabase, toJson } from './database.ts';
import { invalid, parseInput } from './errors.ts';
import {
  idempotencyKey,
  PostInput,
  PostRecord,
  QaEvidence,
  QaEvidenceInput,
  type Run,
  RunEvent,
  RunId,
  RunRequest,
  type RunRequestInput,
  RunState,
  STAGES,
  Stage,
  StageResult,
} from './schema.ts';
import {
  type CreateRunOptions,
  type CreateRunResult,
  DEFAULT_DURATION_BUCKETS_MS,
  type LatestRunQuery,
  type ListRunsQuery,
  type RunPage,
  type RunStore,
  type StageDurations,
} from './types.ts';

export const MAX_LIST_LIMIT = 500;
export const DEFAULT_LIST_LIMIT = 50;

const ListQuery = z.strictObject({
  project: z.string().min(1).optional(),
  change: z.number().int().positive().optional(),
  patchset: z.number().int().positive().optional(),
  state: z.union([RunState, z.array(RunState).min(1)]).optional(),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
  offset: z.number().int().nonnegative().default(0),
});

const LatestQuery = z.strictObject({
  change: z.number().int().positive(),
  patchset: z.number().int().positive().optional(),
  project: z.string().min(1).optional(),
});

const Buckets = z.array(z.number().positive().finite()).min(1).max(50);

const STAGE_RESULT_COLUMNS =
  'run_id, round, stage, status, attempt, output, output_ref AS ref, error, started_at, finished_at, duration_ms';

/** A time-ordered id: `r` + milliseconds in base 36 + 10 random hex digits. */
export function newRunId(at: Date = new Date()): string {
  return `r${at.getTime().toString(36)}-${randomBytes(5).toString('hex')}`;
}

/** Runs, their stage results, posts, QA evidence and events in the runs file. */
export class SqliteRunStore implements RunStore {
  constructor(private readonly file: RunsDatabase) {}

  async create(request: RunRequestInput, options: CreateRunOptions = {}): Promise<CreateRunResult> {
    const parsed = parseInput(RunRequest, request, 'run request');
    const now = this.file.now();
    const id = parseInput(RunId, options.id ?? newRunId(new Date(now.ms)), 'run id');
    const key = options.key ?? idempotencyKey(parsed);
    if (typeof key !== 'string' || key.length === 0)
      throw invalid('key', 'idempotency key must be a non-empty string');
    return this.file.write('create run', () => {
      const existing = this.file.selectRuns('WHERE key = @key', { key });
      if (existing[0] !== undefined) return { run: existing[0], created: false };
      if (this.file.findRun(id) !== null)
        throw invalid(id, `run id "${id}" is taken by a run with another key`);
      this.file.db
        .prepare(
          `INSERT INTO runs (id, key, state, stage, round, round_from, project, change, patchset, revision, request,
             created_at, updated_at)
           VALUES (@id, @key, 'queued', @stage, 1, @stage, @project, @change, @patchset, @revision, @request, @iso, @iso)`,
        )
        .run({
          id,
          key,
          stage: STAGES[0],
          project: parsed.project,
          change: parsed.change,
          patchset: parsed.patchset,
          revision: parsed.revision,
          request: JSON.stringify(parsed),
          iso: now.iso,
        });
      this.file.queueJob(id, 1, STAGES[0] as Stage, now.ms);
      this.file.event(id, 'created', `queued at ${STAGES[0]}`, { key });
      return { run: this.file.requireRun(id), created: true };
    });
  }

  async find(id: string): Promise<Run | null> {
    if (!RunId.safeParse(id).success) return null;
    return this.file.read('read run', () => this.file.findRun(id));
  }

  async get(id: string): Promise<Run> {
    return this.file.read('read run', () => this.file.requireRun(id));
  }

  async list(query: ListRunsQuery = {}): Promise<RunPage> {
    const q = parseInput(ListQuery, query, 'run list query');
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (q.project !== undefined) {
      where.push('project = @project');
      params.project = q.project;
    }
    if (q.change !== undefined) {
      where.push('change = @change');
      params.change = q.change;
    }
    if (q.patchset !== undefined) {
      where.push('patchset = @patchset');
      params.patchset = q.patchset;
    }
    if (q.state !== undefined) {
      const states = typeof q.state === 'string' ? [q.state] : q.state;
      where.push(`state IN (${states.map((_, i) => `@state${i}`).join(', ')})`);
      states.forEach((s, i) => {
        params[`state${i}`] = s;
      });
    }
    const clause = where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
    return this.file.read('list runs', () => {
      const total = this.file.db.prepare(`SELECT COUNT(*) FROM runs ${clause}`).pluck().get(params) as number;
      const runs = this.file.selectRuns(clause, { ...params, limit: q.limit, offset: q.offset }, NEWEST_PAGE);
      return { runs, total };
    });
  }

  async latest(query: LatestRunQuery): Promise<Run | null> {
    const q = parseInput(LatestQuery, query, 'latest run query');
    const where = ['change = @change'];
    if (q.patchset !== undefined) where.push('patchset = @patchset');
    if (q.project !== undefined) where.push('project = @project');
    return this.file.read(
      'read latest run',
      () =>
        this.file.selectRuns(`WHERE ${where.join(' AND ')}`, { ...q, limit: 1, offset: 0 }, NEWEST_PAGE)[0] ??
        null,
    );
  }

  async stages(runId: string): Promise<StageResult[]> {
    return this.file.read('read stage results', () => {
      this.file.requireRun(runId);
      const rows = this.file.db
        .prepare(`SELECT ${STAGE_RESULT_COLUMNS} FROM stage_results WHERE run_id = ?`)
        .all(runId)
        .map(stageResultFromRow);
      return rows.sort((a, b) => a.round - b.round || STAGES.indexOf(a.stage) - STAGES.indexOf(b.stage));
    });
  }

  async output(runId: string, stage: Stage): Promise<StageResult | null> {
    const s = parseInput(Stage, stage, 'stage');
    return this.file.read('read stage output', () => {
      this.file.requireRun(runId);
      const row = this.file.db
        .prepare(
          `SELECT ${STAGE_RESULT_COLUMNS} FROM stage_results
           WHERE run_id = ? AND stage = ? AND status IN ('done', 'skipped') ORDER BY round DESC LIMIT 1`,
        )
        .get(runId, s);
      return row === undefined ? null : stageResultFromRow(row);
    });
  }

  async recordPost(runId: string, post: PostInput): Promise<boolean> {
    const p = parseInput(PostInput, post, 'post');
    return this.file.write('record post', () => {
      const run = this.file.requireRun(runId);
      return insertPost(this.file, run, p);
    });
  }

  async posts(runId: string): Promise<PostRecord[]> {
    return this.file.read('read posts', () => {
      this.file.requireRun(runId);
      return this.file.db
        .prepare(
          'SELECT run_id, round, digest, status, message_id, at FROM posts WHERE run_id = ? ORDER BY id',
        )
        .all(runId)
        .map((row) => PostRecord.parse(row));
    });
  }

  async addEvidence(runId: string, evidence: QaEvidenceInput): Promise<boolean> {
    const e = parseInput(QaEvidenceInput, evidence, 'QA evidence');
    return this.file.write('add QA evidence', () => {
      this.file.requireRun(runId);
      return insertEvidence(this.file, runId, e);
    });
  }

  async evidence(runId: string): Promise<QaEvidence[]> {
    return this.file.read('read QA evidence', () => {
      this.file.requireRun(runId);
      return this.file.db
        .prepare(
          'SELECT run_id, evidence_id, kind, note, round, at FROM qa_evidence WHERE run_id = ? ORDER BY id',
        )
        .all(runId)
        .map((row) => QaEvidence.parse(row));
    });
  }

  async log(runId: string, kind: string, message: string, data: unknown = null): Promise<void> {
    if (typeof kind !== 'string' || kind.length === 0)
      throw invalid('kind', 'event kind must be a non-empty string');
    const json = toJson(data, `data of event "${kind}"`);
    this.file.write('log event', () => {
      this.file.requireRun(runId);
      this.file.event(runId, kind, String(message), json === null ? null : JSON.parse(json));
    });
  }

  async events(runId: string, limit = 200): Promise<RunEvent[]> {
    const n = parseInput(z.number().int().min(1).max(10_000), limit, 'event limit');
    return this.file.read('read events', () => {
      this.file.requireRun(runId);
      const rows = this.file.db
        .prepare(
          'SELECT run_id, at, kind, message, data FROM run_events WHERE run_id = ? ORDER BY id DESC LIMIT ?',
        )
        .all(runId, n) as Record<string, unknown>[];
      return rows.reverse().map((row) => RunEvent.parse({ ...row, data: fromJson(row.data) }));
    });
  }

  async countsByState(): Promise<Record<RunState, number>> {
    return this.file.read('count runs', () => {
      const counts = Object.fromEntries(RunState.options.map((s) => [s, 0])) as Record<RunState, number>;
      const rows = this.file.db.prepare('SELECT state, COUNT(*) AS n FROM runs GROUP BY state').all() as {
        state: RunState;
        n: number;
      }[];
      for (const { state, n } of rows) counts[state] = n;
      return counts;
    });
  }

  async stageDurations(
    bucketsMs: readonly number[] = DEFAULT_DURATION_BUCKETS_MS,
  ): Promise<StageDurations[]> {
    const bounds = [...parseInput(Buckets, bucketsMs, 'duration buckets')].sort((a, b) => a - b);
    const sums = bounds.map((_, i) => `SUM(duration_ms <= @b${i}) AS b${i}`).join(', ');
    const params = Object.fromEntries(bounds.map((b, i) => [`b${i}`, b]));
    return this.file.read('read stage durations', () => {
      const rows = this.file.db
        .prepare(
          `SELECT stage, COUNT(*) AS count, SUM(duration_ms) AS sum_ms, ${sums} FROM stage_results
           WHERE status = 'done' AND duration_ms IS NOT NULL GROUP BY stage`,
        )
        .all(params) as Record<string, number>[];
      const byStage = new Map(rows.map((r) => [r.stage as unknown as Stage, r]));
      return STAGES.map((stage) => {
        const row = byStage.get(stage);
        const count = row?.count ?? 0;
        return {
          stage,
          count,
          sum_ms: row?.sum_ms ?? 0,
          buckets: [
            ...bounds.map((le, i) => ({ le, count: row?.[`b${i}`] ?? 0 })),
            { le: Number.POSITIVE_INFINITY, count },
          ],
        };
      });
    });
  }
}

const NEWEST_PAGE = 'ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset';

function stageResultFromRow(row: unknown): StageResult {
  const r = row as Record<string, unknown>;
  return StageResult.parse({ ...r, output: fromJson(r.output) });
}

/** Inside a write: the first record of (run, round, digest) stays. */
export function insertPost(file: RunsDatabase, run: Run, post: z.output<typeof PostInput>): boolean {
  const round = post.round ?? run.round;
  const added =
    file.db
      .prepare(
        `INSERT OR IGNORE INTO posts (run_id, round, digest, status, message_id, at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(run.id, round, post.digest, post.status, post.message_id, file.now().iso).changes === 1;
  if (added)
    file.event(run.id, 'post', `${post.status} ${post.digest}`, { round, message_id: post.message_id });
  return added;
}

/** Inside a write: the first record of (run, evidence id) stays. */
export function insertEvidence(
  file: RunsDatabase,
  runId: string,
  evidence: z.output<typeof QaEvidenceInput>,
): boolean {
  const added =
    file.db
      .prepare(
        'INSERT OR IGNORE INTO qa_evidence (run_id, evidence_id, kind, note, at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(runId, evidence.evidence_id, evidence.kind, evidence.note, file.now().iso).changes === 1;
  if (added) file.event(runId, 'evidence', `QA added ${evidence.kind} ${evidence.evidence_id}`);
  return added;
}
