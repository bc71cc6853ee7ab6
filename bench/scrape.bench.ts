/**
 * npm run bench:scrape — failures/s of the scraper on an Allure 2 report with 1,000 failures
 * from a real vitest run, in data mode and DOM mode, and the peak RSS of each (own process).
 * Usage: npm run bench:scrape [-- --failures 1000 --concurrency 4 --runs 3 --modes data,dom]
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { pino } from 'pino';
import { scrapeReport, serveDir } from '../scraper/index.ts';
import { PLATFORMS_DIR } from '../src/cli/main.ts';
import type { ScrapeMode } from '../src/schemas/index.ts';
import { EvidenceStore } from '../src/store/evidence/index.ts';

const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    failures: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'data,dom' },
    child: { type: 'string' },
    url: { type: 'string' },
  },
});

if (values.child) {
  await child(values.child as ScrapeMode, values.url as string, Number(values.concurrency));
} else {
  await parent();
}

async function parent(): Promise<void> {
  const report = resolve(`var/bench/allure2-${values.failures}`);
  if (!existsSync(join(report, 'index.html'))) {
    console.log(`generating a ${values.failures}-failure Allure 2 report in ${report} …`);
    const made = spawnSync('bash', ['bench/make-large-report.sh', report, String(values.failures)], {
      stdio: 'inherit',
    });
    if (made.status !== 0) throw new Error('bench/make-large-report.sh failed');
  }
  // The report is served by this (parent) process, the scraper runs in a child: as in production,
  // the report server's work is not counted against the scraper's CPU or memory.
  const served = await serveDir(report);
  for (const mode of String(values.modes).split(',') as ScrapeMode[]) {
    const cold: number[] = [];
    const warm: number[] = [];
    let rss = 0;
    let failures = 0;
    for (let attempt = 0; attempt < Number(values.runs); attempt++) {
      const out = await run(process.execPath, [
        '--import',
        'tsx',
        'bench/scrape.bench.ts',
        ...['--child', mode, '--url', served.url, '--concurrency', String(values.concurrency)],
      ]);
      const result = JSON.parse(out.stdout.trim().split('\n').pop() as string) as {
        failures: number;
        cold: number;
        warm: number;
        maxRssMb: number;
      };
      cold.push(result.failures / result.cold);
      warm.push(result.failures / result.warm);
      rss = Math.max(rss, result.maxRssMb);
      failures = result.failures;
    }
    const fmt = (xs: number[]) =>
      `median ${median(xs).toFixed(1)}/s (${xs.map((r) => r.toFixed(1)).join(', ')})`;
    console.log(
      `${mode.padEnd(4)}: ${failures} failures over ${cold.length} runs, concurrency ${values.concurrency} — ` +
        `cold process ${fmt(cold)}; warm ${fmt(warm)}; peak RSS ${rss.toFixed(0)} MB (Node; Chromium separate)`,
    );
  }
  await served.close();
}

/**
 * One scrape in a fresh process (cold: module loading, JIT, first connections count), then a
 * second into a fresh evidence store (warm: the steady state of a long-running service).
 */
async function child(mode: ScrapeMode, url: string, concurrency: number): Promise<void> {
  const cold = await timedScrape(mode, url, concurrency);
  const warm = await timedScrape(mode, url, concurrency);
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ failures: warm.failures, cold: cold.seconds, warm: warm.seconds, maxRssMb }));
}

async function timedScrape(mode: ScrapeMode, url: string, concurrency: number) {
  const evidence = mkdtempSync(join(tmpdir(), 'bench-evidence-'));
  const store = new EvidenceStore({ root: evidence });
  const started = performance.now();
  try {
    const facts = await scrapeReport(
      { input: url, platform: 'allure2', mode, limits: { concurrency } },
      {
        store,
        log: pino({ level: 'silent' }),
        progress: { start() {}, tick() {}, done() {} },
        platformsDir: PLATFORMS_DIR,
      },
    );
    return { failures: facts.issues.length, seconds: (performance.now() - started) / 1000 };
  } finally {
    store.close();
    rmSync(evidence, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
