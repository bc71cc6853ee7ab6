import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRunStorage } from '../../../src/store/runs/index.ts';
import { request, TestFiles } from './helpers.ts';

const WORKER_SCRIPT = fileURLToPath(new URL('./claim-worker.ts', import.meta.url));
const RUNS = 150;

interface Worker {
  child: ChildProcess;
  lines: AsyncIterator<string>;
  stderr: string[];
}

function startWorker(dir: string, name: string): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_SCRIPT, dir, name], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (d: Buffer) => stderr.push(d.toString()));
  const lines = createInterface({ input: child.stdout as NonNullable<typeof child.stdout> })[
    Symbol.asyncIterator
  ]();
  return { child, lines, stderr };
}

async function nextLine(w: Worker): Promise<string> {
  const { value, done } = await w.lines.next();
  if (done) throw new Error(`worker ended without output: ${w.stderr.join('')}`);
  return value;
}

describe('two processes claiming from one runs file', () => {
  let files: TestFiles;
  const workers: Worker[] = [];

  beforeEach(() => {
    files = new TestFiles();
  });
  afterEach(() => {
    for (const w of workers.splice(0)) w.child.kill();
    files.cleanup();
  });

  it('never hands the same job to both', async () => {
    const seed = openRunStorage(files.dir);
    const runIds: string[] = [];
    for (let i = 1; i <= RUNS; i++) runIds.push((await seed.runs.create(request({ patchset: i }))).run.id);
    seed.close();

    workers.push(startWorker(files.dir, 'a'), startWorker(files.dir, 'b'));
    for (const w of workers) expect(await nextLine(w)).toBe('ready');
    for (const w of workers) w.child.stdin?.write('go\n');
    const [a, b] = (await Promise.all(workers.map(nextLine))).map((l) => JSON.parse(l) as string[]);

    const all = [...(a ?? []), ...(b ?? [])];
    // Each run has two jobs (scrape, then context): every one was claimed, exactly once.
    expect(all).toHaveLength(RUNS * 2);
    expect(new Set(all).size).toBe(RUNS * 2);
    // Both processes got work, so they really did race for it.
    expect(a?.length).toBeGreaterThan(0);
    expect(b?.length).toBeGreaterThan(0);
    const check = openRunStorage(files.dir);
    try {
      expect((await check.runs.countsByState()).done).toBe(RUNS);
      expect(await check.queue.depth()).toBe(0);
      const stages = await check.runs.stages(runIds[0] as string);
      expect(stages.map((r) => [r.stage, r.status, r.attempt])).toEqual([
        ['scrape', 'done', 1],
        ['context', 'done', 1],
        ['locate', 'skipped', 0],
        ['diagnose', 'skipped', 0],
        ['check', 'skipped', 0],
        ['publish', 'skipped', 0],
        ['page', 'skipped', 0],
      ]);
    } finally {
      check.close();
    }
  });
});
