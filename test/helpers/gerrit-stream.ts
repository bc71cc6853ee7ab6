import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { GerritServer } from './gerrit-server.ts';

/** Events as Gerrit emitted them (one JSON object per line), in order of arrival. */
export interface EventStream {
  readonly events: Record<string, unknown>[];
  /** The first event (already received or still to come) that `match` accepts; `what` names it in errors. */
  waitFor(
    what: string,
    match: (event: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const WAIT_MS = 30_000;
const CONNECT_MS = 60_000;
const PROBE_EVERY_MS = 2_000;

/**
 * Follows `ssh admin@gerrit gerrit stream-events` on a server started with `{ ssh: true }`. That
 * command sends the same event objects the webhooks plugin POSTs, so tests see what the service
 * will. Resolves once the stream demonstrably delivers: the command has no "ready" line, so
 * probe projects are created until one's creation comes through.
 */
export async function streamEvents(gerrit: GerritServer): Promise<EventStream> {
  if (gerrit.sshPort === undefined) throw new Error('streamEvents needs startGerrit({ ssh: true })');
  const dir = mkdtempSync(join(tmpdir(), 'gerrit-ssh-'));
  const key = join(dir, 'id_ed25519');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'stream-events', '-f', key]);
  await adminCall(gerrit, 'POST', 'accounts/self/sshkeys', readFileSync(`${key}.pub`, 'utf8'), 'text/plain');

  const child = spawn('ssh', [...sshOptions(key, gerrit.sshPort), 'gerrit', 'stream-events'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stream = follow(child, () => rmSync(dir, { recursive: true, force: true }));
  try {
    await untilDelivering(gerrit, stream);
  } catch (err) {
    await stream.stop();
    throw err;
  }
  return stream;
}

async function untilDelivering(gerrit: GerritServer, stream: EventStream): Promise<void> {
  const deadline = Date.now() + CONNECT_MS;
  for (;;) {
    const probe = `stream-probe-${randomBytes(3).toString('hex')}`;
    await adminCall(gerrit, 'PUT', `projects/${probe}`, '{}', 'application/json');
    const created = (e: Record<string, unknown>) => e.type === 'project-created' && e.projectName === probe;
    try {
      await stream.waitFor(`creation of probe project ${probe}`, created, PROBE_EVERY_MS);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

// A fresh host key per server and no agent or user config: only the key made here is offered.
const SSH_OPTIONS = [
  'StrictHostKeyChecking=no',
  'UserKnownHostsFile=/dev/null',
  'BatchMode=yes',
  'IdentitiesOnly=yes',
  'LogLevel=ERROR',
];

function sshOptions(key: string, port: number): string[] {
  return [
    '-F',
    '/dev/null',
    '-i',
    key,
    '-p',
    String(port),
    ...SSH_OPTIONS.flatMap((o) => ['-o', o]),
    'admin@127.0.0.1',
  ];
}

function follow(child: ChildProcess, cleanup: () => void): EventStream {
  const events: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.trim() === '') return;
      events.push(JSON.parse(line) as Record<string, unknown>);
      for (const wake of waiters) wake();
    });
  }

  const waitFor: EventStream['waitFor'] = (what, match, timeoutMs = WAIT_MS) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = events.find(match);
        if (found === undefined) return;
        done();
        resolve(found);
      };
      const timer = setTimeout(() => {
        done();
        const ssh = stderr.trim() === '' ? '' : `; ssh said: ${stderr.trim()}`;
        reject(
          new Error(`no ${what} from Gerrit within ${timeoutMs} ms (${events.length} events seen)${ssh}`),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    cleanup();
  };
  return { events, waitFor, stop };
}

/** A raw call as admin: the SSH key endpoint wants the key as text/plain, not JSON. */
async function adminCall(
  gerrit: GerritServer,
  method: string,
  path: string,
  body: string,
  contentType: string,
): Promise<void> {
  const auth = Buffer.from(`${gerrit.user}:${gerrit.password}`).toString('base64');
  const res = await fetch(`${gerrit.url}a/${path}`, {
    method,
    headers: { authorization: `Basic ${auth}`, 'content-type': contentType },
    body,
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
}
