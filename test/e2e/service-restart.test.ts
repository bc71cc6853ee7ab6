import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDir } from '../../scraper/index.ts';
import { changeIdOf } from '../../src/gerrit/index.ts';
import { createProject, gerritClient, type PushedChange, pushChange } from '../helpers/gerrit-harness.ts';
import { type GerritServer, startGerrit } from '../helpers/gerrit-server.ts';
import { TempRepo } from '../helpers/git-repo.ts';

const SHOP = 'test/fixtures/build/projects/shop-vitest';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

/** `ci-diagnosis serve` as production runs it, killed with SIGKILL mid-run and started again. */
describe('the service process survives a kill in the middle of a run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-restart-'));
  let gerrit: GerritServer;
  let change: PushedChange;
  let repo: TempRepo;
  let report: { url: string; close(): Promise<void> };
  let port = 0;
  let child: ChildProcess | null = null;
  const base = () => `http://127.0.0.1:${port}`;

  const start = async () => {
    child = spawn(process.execPath, ['bin/ci-diagnosis.js', 'serve'], {
      env: {
        ...process.env,
        CI_DIAGNOSIS_STORAGE_DATA_DIR: join(dir, 'data'),
        CI_DIAGNOSIS_SERVER_PORT: String(port),
        CI_DIAGNOSIS_SERVER_HOST: '127.0.0.1',
        CI_DIAGNOSIS_GERRIT_BASE_URL: gerrit.url,
        GERRIT_USERNAME: gerrit.user,
        GERRIT_PASSWORD: gerrit.password,
        ANTHROPIC_API_KEY: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    for (let i = 0; i < 150; i++) {
      if (
        await fetch(`${base()}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('serve did not start');
  };
  const runOf = async (id: string) => (await fetch(`${base()}/api/runs/${id}`)).json();

  beforeAll(async () => {
    gerrit = await startGerrit();
    await createProject(gerrit, 'shop');
    repo = new TempRepo();
    const remote = `http://${gerrit.user}:${gerrit.password}@${gerrit.url.slice('http://'.length)}a/shop`;
    repo.git('fetch', '-q', remote, 'master');
    repo.git('reset', '-q', '--hard', 'FETCH_HEAD');
    cpSync(join(SHOP, 'src'), join(repo.dir, 'src'), { recursive: true });
    cpSync(join(SHOP, 'test'), join(repo.dir, 'test'), { recursive: true });
    const ledger = readFileSync(join(SHOP, 'src/ledger.ts'), 'utf8');
    const rounded = ledger.replace(
      'assert.equal(booked, expected,',
      'assert.equal(Math.round(booked), Math.round(expected),',
    );
    repo.commit({ 'src/ledger.ts': rounded }, 'shop with a rounded ledger check');
    repo.git('push', '-q', remote, 'HEAD:refs/heads/master');
    change = await pushChange(
      gerrit,
      'shop',
      repo,
      { 'src/ledger.ts': ledger },
      'ledger: compare exact amounts',
    );
    report = await serveDir('test/fixtures/reports/allure2');
    port = await freePort();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await report?.close();
    repo?.remove();
    await gerrit?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes the run after a restart and posts exactly once', async () => {
    await start();
    const created = await fetch(`${base()}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        project: 'shop',
        change: change.number,
        patchset: change.patchset,
        report_url: report.url,
        platform: 'allure2',
      }),
    });
    expect(created.status).toBe(202);
    const { id } = await created.json();
    for (let i = 0; i < 100 && (await runOf(id)).stages.length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    const before = await runOf(id);
    child?.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));
    // Killed with the run under way: nothing was posted yet.
    expect(before.run.state).toBe('running');
    expect(before.posts).toEqual([]);

    await start();
    let run = await runOf(id);
    for (let i = 0; i < 300 && run.run.state !== 'done' && run.run.state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = await runOf(id);
    }
    expect(run.run.state, JSON.stringify(run.run)).toBe('done');
    const messages = await gerritClient(gerrit).listMessages(changeIdOf('shop', change.number));
    expect(messages.filter((m) => m.tag === 'autogenerated:ci-diagnosis')).toHaveLength(1);
    expect(run.posts.map((p: { status: string }) => p.status)).toEqual(['posted']);
    child?.kill('SIGTERM');
  });
});
