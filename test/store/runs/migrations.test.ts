import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { MIGRATIONS, openRunStorage, RUNS_FILE } from '../../../src/store/runs/index.ts';
import { present, REV, request, TestFiles } from './helpers.ts';

const LEASE = 60_000;

describe('runs file: migrations and failed writes', () => {
  let files: TestFiles;

  beforeEach(() => {
    files = new TestFiles();
  });
  afterEach(() => files.cleanup());

  it('upgrades a version 1 file, keeping its runs and queue', async () => {
    mkdirSync(files.dir, { recursive: true });
    const raw = new Database(join(files.dir, RUNS_FILE));
    raw.exec(MIGRATIONS[0] as string);
    raw.pragma('user_version = 1');
    const at = '2026-11-30T08:00:00.000Z';
    raw
      .prepare(
        `INSERT INTO runs (id, key, state, stage, project, change, patchset, revision, request, created_at, updated_at)
         VALUES ('r-old', 'shop~7~1~http://ci/', 'queued', 'scrape', 'shop', 7, 1, ?, ?, ?, ?)`,
      )
      .run(REV, JSON.stringify(request({ patchset: 1, report_url: 'http://ci/' })), at, at);
    raw
      .prepare(
        `INSERT INTO jobs (run_id, round, stage, state, available_at, created_at, updated_at)
         VALUES ('r-old', 1, 'scrape', 'queued', 0, ?, ?)`,
      )
      .run(at, at);
    raw.close();

    const s = files.storage();

    const db = new Database(s.path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
    expect(await s.runs.get('r-old')).toMatchObject({ state: 'queued', round: 1, round_from: 'scrape' });
    const job = present(await s.queue.claim('w', LEASE));
    expect(job).toMatchObject({ run_id: 'r-old', stage: 'scrape' });
    // The tables version 2 added work on the old runs.
    await s.queue.complete(job, { post: { digest: 'abcdef012345', status: 'posted' } });
    expect(await s.runs.posts('r-old')).toHaveLength(1);
    expect((await s.runs.events('r-old')).map((e) => e.kind)).toEqual(['claimed', 'post', 'completed']);
    expect((await s.runs.create(request({ patchset: 1, report_url: 'http://ci/' }))).created).toBe(false);
  });

  it('refuses a file from a newer program and leaves it as it was', async () => {
    const s = files.storage();
    const { run } = await s.runs.create(request());
    s.close();
    const raw = new Database(join(files.dir, RUNS_FILE));
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();

    let err: unknown;
    try {
      openRunStorage(files.dir);
    } catch (e: unknown) {
      err = e;
    }
    expect(err).toBeInstanceOf(DiagnosisError);
    expect(err).toMatchObject({ code: 'STORE_ERROR', input: join(files.dir, RUNS_FILE) });
    expect((err as Error).message).toMatch(
      `has schema version ${MIGRATIONS.length + 1}, newer than this program's ${MIGRATIONS.length}`,
    );
    const after = new Database(join(files.dir, RUNS_FILE), { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length + 1);
    expect(after.prepare('SELECT id FROM runs').pluck().all()).toEqual([run.id]);
    after.close();
  });

  it('loses nothing when completing a stage fails half-way: result, post and next stage go together', async () => {
    const s = files.storage();
    const { run } = await s.runs.create(request());
    const job = present(await s.queue.claim('w', LEASE));
    const raw = new Database(s.path);
    raw.exec(`CREATE TRIGGER refuse_context BEFORE INSERT ON jobs WHEN NEW.stage = 'context'
              BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END`);

    const completion = {
      output: { failures: 2 },
      post: { digest: 'abcdef012345', status: 'posted' as const },
    };
    await expect(s.queue.complete(job, completion)).rejects.toMatchObject({
      code: 'STORE_ERROR',
      input: s.path,
      message: expect.stringContaining('complete failed: disk full (simulated)'),
    });

    expect((await s.runs.stages(run.id))[0]).toMatchObject({
      stage: 'scrape',
      status: 'running',
      output: null,
    });
    expect(await s.runs.posts(run.id)).toEqual([]);
    expect((await s.runs.get(run.id)).stage).toBe('scrape');
    expect(await s.queue.heartbeat(job, LEASE)).toBe('extended');
    raw.exec('DROP TRIGGER refuse_context');
    raw.close();
    expect((await s.queue.complete(job, completion)).next).toBe('context');
    expect(await s.runs.posts(run.id)).toHaveLength(1);
  });

  it('loses nothing when creating a run fails: no run without its job, and the other runs stay', async () => {
    const s = files.storage();
    const kept = (await s.runs.create(request({ patchset: 1 }))).run;
    const raw = new Database(s.path);
    raw.exec(`CREATE TRIGGER refuse_created BEFORE INSERT ON run_events WHEN NEW.kind = 'created'
              BEGIN SELECT RAISE(ABORT, 'disk full (simulated)'); END`);

    await expect(s.runs.create(request({ patchset: 2 }))).rejects.toMatchObject({ code: 'STORE_ERROR' });

    raw.close();
    expect((await s.runs.list()).runs.map((r) => r.id)).toEqual([kept.id]);
    expect(await s.queue.depth()).toBe(1);
  });
});
