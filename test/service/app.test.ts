import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pLimit from 'p-limit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidenceChecker } from '../../src/check/index.ts';
import { PLATFORMS_DIR } from '../../src/cli/main.ts';
import { rulesEngine } from '../../src/diagnose/index.ts';
import { type CaseInput, cloneCase, loadCase } from '../../src/eval/case.ts';
import { EventPolicy } from '../../src/events/index.ts';
import { buildApp, Counters, runStage, Worker } from '../../src/service/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { openRunStorage, type SqliteRunStorage } from '../../src/store/runs/index.ts';
import { silentProgress } from '../helpers/scrape-context.ts';

const CASE = new URL('../corpus/price-rounding/', import.meta.url).pathname;
const EVENTS = new URL('../fixtures/gerrit-events/', import.meta.url).pathname;
const log = pino({ level: 'silent' });

describe('the service over HTTP (real stores, real pipeline, rules engine)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-'));
  let storage: SqliteRunStorage;
  let evidence: EvidenceStore;
  let app: FastifyInstance;
  let worker: Worker;
  let input: CaseInput;
  let clone: { dir: string; remove(): Promise<void> };
  const deps = { maxQueueDepth: 50 };

  beforeAll(async () => {
    ({ input } = await loadCase(CASE));
    clone = await cloneCase(input);
    storage = openRunStorage(join(dir, 'runs'));
    evidence = new EvidenceStore({ root: join(dir, 'evidence') });
    const pipeline = {
      store: evidence,
      signatures: null,
      masks: () => [],
      engine: rulesEngine,
      checker: evidenceChecker,
      log,
      progress: silentProgress,
      platformsDir: PLATFORMS_DIR,
    };
    const stageDeps = {
      runs: storage.runs,
      pipeline,
      gerrit: null,
      repoFor: () => clone.dir,
      cacheDir: join(dir, 'repos'),
      gitLimit: pLimit(2),
      publish: {},
      pageUrl: (id: string) => `http://diag.test/runs/${id}`,
    };
    worker = new Worker({
      queue: storage.queue,
      runs: storage.runs,
      runStage: (job, run) => runStage(job, run, stageDeps),
      log,
      workerId: 'w1',
      leaseMs: 60_000,
    });
    app = await buildApp({
      runs: storage.runs,
      queue: storage.queue,
      evidence,
      counters: new Counters(),
      log,
      get maxQueueDepth() {
        return deps.maxQueueDepth;
      },
      retryAfterSeconds: 30,
      publicBaseUrl: 'http://diag.test/',
      gerritWebUrl: null,
      hooks: {
        policy: EventPolicy.parse({ ci_accounts: ['ci-bot'], self_account: 'diagnosis-bot' }),
        secret: 's3cret',
        allowed: () => false,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    evidence?.close();
    storage?.close();
    await clone?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const drain = async () => {
    for (let i = 0; i < 30 && (await worker.runOnce()); i++);
  };
  let runId = '';

  it('takes a run as CI hands it over, answers at once, and diagnoses it in the background', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/runs',
      payload: {
        project: 'pricing-service',
        revision: input.revision,
        report_url: join(CASE, 'report'),
        platform: 'allure2',
      },
    });
    expect(res.statusCode).toBe(202);
    runId = res.json().id;
    expect(res.json()).toMatchObject({ created: true, page_url: `http://diag.test/runs/${runId}` });
    await drain();
    const run = (await app.inject({ method: 'GET', url: `/api/runs/${runId}` })).json();
    expect(run.run.state).toBe('done');
    expect(run.stages.map((s: { stage: string; status: string }) => `${s.stage}:${s.status}`)).toEqual([
      'scrape:done',
      'context:done',
      'locate:done',
      'diagnose:done',
      'check:skipped',
      'publish:skipped',
      'page:skipped',
    ]);
    expect(run.diagnosis.failures.map((f: { verdict: string }) => f.verdict)).toEqual([
      'caused_by_change',
      'caused_by_change',
    ]);
    expect(run.diagnosis.page_url).toBe(`http://diag.test/runs/${runId}`);
  });

  it('serves the report page, and the same request twice is one run', async () => {
    const page = await app.inject({ method: 'GET', url: `/runs/${runId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('pricing/price.py');
    const again = await app.inject({
      method: 'POST',
      url: '/api/runs',
      payload: {
        project: 'pricing-service',
        revision: input.revision,
        report_url: join(CASE, 'report'),
        platform: 'allure2',
      },
    });
    expect(again.json()).toMatchObject({ id: runId, created: false });
  });

  it('takes QA evidence, stores it and re-diagnoses in a new round', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/runs/${runId}/evidence`,
      payload: { kind: 'text', text: 'DB record: price 2.675 stored as 2.67' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ round: 2, started: true });
    expect(evidence.get(res.json().evidence_id).kind).toBe('attachment');
    await drain();
    const run = (await app.inject({ method: 'GET', url: `/api/runs/${runId}` })).json();
    expect(run.run.state).toBe('done');
    expect(run.diagnosis.run_id).toBe(`${runId}.r2`);
  });

  it('answers bad input with a 4xx that names the field, and keeps serving', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/runs',
      payload: { project: 'p', report_url: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^run request: report_url: /);
    const short = await app.inject({
      method: 'POST',
      url: '/api/runs',
      payload: { project: 'p', revision: input.revision, report_url: '/r', report_revision: 'abc123' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toBe('run request: report_revision: a full commit sha');
    expect((await app.inject({ method: 'GET', url: '/runs/no-such-run' })).statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/runs/${runId}/evidence`,
          payload: { kind: 'text', text: ' ' },
        })
      ).statusCode,
    ).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({
      ok: true,
      queue_depth: 0,
    });
  });

  it('pushes back with 429 and Retry-After when the queue is full', async () => {
    deps.maxQueueDepth = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/runs',
      payload: { project: 'p', revision: input.revision, report_url: '/nowhere' },
    });
    deps.maxQueueDepth = 50;
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('ci_diagnosis_runs{state="done"} 1');
    expect(metrics).toContain('ci_diagnosis_rejected_requests_total 1');
    expect(metrics).toMatch(/ci_diagnosis_stage_duration_seconds_count\{stage="diagnose"\} 2/);
  });

  it('turns a real Gerrit event into a run, and refuses one without the secret', async () => {
    const event = JSON.parse(readFileSync(join(EVENTS, 'comment-added-ci-minus1.json'), 'utf8'));
    expect((await app.inject({ method: 'POST', url: '/hooks/gerrit', payload: event })).statusCode).toBe(403);
    const res = await app.inject({ method: 'POST', url: '/hooks/gerrit?secret=s3cret', payload: event });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ action: 'diagnose', trigger: 'ci_vote', created: true });
    const bad = await app.inject({
      method: 'POST',
      url: '/hooks/gerrit?secret=s3cret',
      payload: { type: 'comment-added' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('EVENT_INVALID');
  });

  it('locates without trusting the report lines when the revision CI names is not to be had', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/runs',
      payload: {
        // Another project: the same report of the same revision would be the first test's run.
        project: 'pricing-service-merged',
        revision: input.revision,
        report_url: join(CASE, 'report'),
        report_revision: 'f'.repeat(40),
        platform: 'allure2',
      },
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().id;
    await drain();
    const run = (await app.inject({ method: 'GET', url: `/api/runs/${id}` })).json();
    expect(run.run.state, JSON.stringify(run.run)).toBe('done');
    const located = await storage.runs.output(id, 'locate');
    expect(located?.output).toMatchObject({ located: { revision: input.revision, report_revision: null } });
  });
});
