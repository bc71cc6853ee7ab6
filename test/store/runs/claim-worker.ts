/**
 * A worker process for the concurrency test: opens the runs file, says "ready", waits for "go"
 * on stdin, then claims and completes jobs until none is left, and prints the job ids it got.
 */
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { openRunStorage } from '../../../src/store/runs/index.ts';

const [dir, worker] = process.argv.slice(2);
if (dir === undefined || worker === undefined) throw new Error('usage: claim-worker.ts DIR WORKER');
const storage = openRunStorage(dir, { busyTimeoutMs: 30_000 });
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  if (line === 'go') break;
}
lines.close();
const claimed: string[] = [];
for (;;) {
  const job = await storage.queue.claim(worker, 600_000);
  if (job === null) break;
  claimed.push(`${job.id}:${job.stage}`);
  // The stage's work, outside any transaction: the other process claims meanwhile (SQLite's
  // busy wait is not fair, so a worker that never pauses could starve the other one).
  await sleep(1);
  await storage.queue.complete(job, { output: { worker }, next: job.stage === 'scrape' ? 'context' : null });
}
storage.close();
process.stdout.write(`${JSON.stringify(claimed)}\n`);
