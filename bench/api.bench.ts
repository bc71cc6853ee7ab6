/**
 * npm run bench:api — autocannon against POST /api/runs with the queue limit in place: the
 * service must answer 429 with Retry-After once the queue is full, fast, instead of collapsing.
 * No worker runs, so every accepted run stays queued. Usage: npm run bench:api [-- --seconds 5
 * --connections 50 --max-queue 200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { buildApp, Counters } from '../src/service/index.ts';
import { EvidenceStore } from '../src/store/evidence/index.ts';
import { openRunStorage } from '../src/store/runs/index.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    'max-queue': { type: 'string', default: '200' },
  },
});

const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
const storage = openRunStorage(join(dir, 'runs'));
const evidence = new EvidenceStore({ root: join(dir, 'evidence') });
const app = await buildApp({
  runs: storage.runs,
  queue: storage.queue,
  evidence,
  counters: new Counters(),
  log: pino({ level: 'silent' }),
  maxQueueDepth: Number(values['max-queue']),
  retryAfterSeconds: 30,
  publicBaseUrl: null,
  gerritWebUrl: null,
  hooks: { policy: null, secret: null, allowed: () => false },
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
let n = 0;
const result = await autocannon({
  url: `${url}/api/runs`,
  connections: Number(values.connections),
  duration: Number(values.seconds),
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Each request a new run (a new report URL), as a busy CI would send them.
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ project: 'p', change: 1, patchset: 1, report_url: `http://ci/r/${n++}` }),
      }),
    },
  ],
});
const counts = await storage.runs.countsByState();
console.log(
  `${result.requests.total} requests in ${values.seconds} s over ${values.connections} connections: ` +
    `${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ` +
    `2xx ${result['2xx']}, 4xx ${result['4xx']} (429 once ${values['max-queue']} runs were queued), 5xx ${result['5xx']}, errors ${result.errors}, timeouts ${result.timeouts}; ` +
    `runs queued ${counts.queued}`,
);
await app.close();
storage.close();
evidence.close();
rmSync(dir, { recursive: true, force: true });
