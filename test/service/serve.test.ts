import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

describe('ci-diagnosis serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'serve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from the environment, answers health and metrics, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/ci-diagnosis.js', 'serve'], {
      env: {
        ...process.env,
        CI_DIAGNOSIS_STORAGE_DATA_DIR: dir,
        CI_DIAGNOSIS_SERVER_PORT: String(port),
        CI_DIAGNOSIS_SERVER_HOST: '127.0.0.1',
        ANTHROPIC_API_KEY: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    let health: unknown = null;
    for (let i = 0; i < 100 && health === null; i++) {
      health = await fetch(`${base}/healthz`).then(
        (r) => r.json(),
        () => null,
      );
      if (health === null) await new Promise((r) => setTimeout(r, 200));
    }
    expect(health, stderr).toEqual({ ok: true, queue_depth: 0 });
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('ci_diagnosis_runs{state="queued"} 0');
    const refused = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"report_url": 7}',
    });
    expect(refused.status).toBe(400);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
