/**
 * npm run bench:scrape — failures/s of the scraper on an Allure 2 report with 1,000 failures
 * from a real vitest run, in data mode and DOM mode, and the peak RSS of each (own process).
 * Usage: npm run bench:scrape [-- --failures 1000 --concurrency 4 --runs 3]
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
  for (const mode of ['data', 'dom'] as const) {
    const rates: number[] = [];
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
        seconds: number;
        maxRssMb: number;
      };
      rates.push(result.failures / result.seconds);
      rss = Math.max(rss, result.maxRssMb);
      failures = result.failures;
    }
    console.log(
      `${mode.padEnd(4)}: ${failures} failures, median ${median(rates).toFixed(1)} failures/s over ${rates.length} runs ` +
        `(${rates.map((r) => r.toFixed(1)).join(', ')}), peak RSS ${rss.toFixed(0)} MB (Node process; Chromium is separate)`,
    );
  }
  await served.close();
}

async function child(mode: ScrapeMode, url: string, concurrency: number): Promise<void> {
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
    const seconds = (performance.now() - started) / 1000;
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    console.log(JSON.stringify({ failures: facts.issues.length, seconds, maxRssMb }));
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
