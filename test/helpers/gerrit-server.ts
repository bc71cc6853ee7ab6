import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A real, throwaway Gerrit 3.10 (headless, REST + git over HTTP) on 127.0.0.1. */
export interface GerritServer {
  /** Base URL with a trailing slash, e.g. http://127.0.0.1:40123/ */
  url: string;
  user: 'admin';
  password: 'secret';
  /** Port of Gerrit's SSH daemon (for `gerrit stream-events`); only with `{ ssh: true }`. */
  sshPort?: number;
  stop(): Promise<void>;
}

export interface StartGerritOptions {
  /** Also run Gerrit's SSH daemon on 127.0.0.1 (off by default: most tests need only HTTP). */
  ssh?: boolean;
}

const START_SCRIPT = fileURLToPath(new URL('../../scripts/gerrit/start.sh', import.meta.url));
const READY_TIMEOUT_MS = 240_000;

/**
 * Starts Gerrit on a new temporary site and a free port (scripts/gerrit/start.sh --foreground, which
 * fetches the jars into the cache on first use). Resolves once GET /config/server/version answers.
 */
export async function startGerrit(options: StartGerritOptions = {}): Promise<GerritServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (err) {
      // Another process may take the port between probing and Jetty binding it: retry then only.
      if (attempt >= 3 || !/Address already in use|BindException/.test(String(err))) throw err;
    }
  }
}

async function startOnce(options: StartGerritOptions): Promise<GerritServer> {
  const dir = mkdtempSync(join(tmpdir(), 'gerrit-'));
  const port = await freePort();
  const sshPort = options.ssh ? await freePort() : undefined;
  const url = `http://127.0.0.1:${port}/`;
  const env = { ...process.env, GERRIT_SSH_PORT: sshPort === undefined ? '' : String(sshPort) };
  const child = spawn('bash', [START_SCRIPT, '--foreground', join(dir, 'site'), String(port)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: stop() also reaches an init still running under bash
  });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString('utf8').split('\n'));
    if (log.length > 400) log.splice(0, log.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });

  const stop = async () => {
    await terminate(child, exited);
    rmSync(dir, { recursive: true, force: true });
  };
  const fail = async (why: string): Promise<never> => {
    await stop();
    throw new Error(`Gerrit ${why}; last log lines:\n${log.slice(-60).join('\n')}`);
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (gone) return fail(`exited (code ${await exited}) before it was ready`);
    if (Date.now() > deadline) return fail(`was not ready after ${READY_TIMEOUT_MS / 1000}s`);
    try {
      const res = await fetch(`${url}config/server/version`, { signal: AbortSignal.timeout(5_000) });
      // Gerrit starts sshd before Jetty: once HTTP answers, SSH listens too.
      if (res.ok) return { url, user: 'admin', password: 'secret', sshPort, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? res(addr.port) : rej(new Error('no port'))));
    });
  });
}
