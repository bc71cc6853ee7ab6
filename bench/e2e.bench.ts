/**
 * npm run bench:e2e — a 50-failure report from a real vitest run through the whole pipeline with
 * the rules engine (scrape → locate → context → triage/rules/checker), wall time per stage and in
 * all (p50 over runs, each in a fresh process), and peak RSS.
 * Usage: npm run bench:e2e [-- --failures 50 --runs 5 --mode data|dom]
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { pino } from 'pino';
import { evidenceChecker } from '../src/check/index.ts';
import { PLATFORMS_DIR } from '../src/cli/main.ts';
import {
  diagnoseReport,
  loadPipelineSettings,
  type PipelineStage,
  rulesEngine,
} from '../src/diagnose/index.ts';
import type { ScrapeMode } from '../src/schemas/index.ts';
import { EvidenceStore } from '../src/store/evidence/index.ts';
import { SignatureStore } from '../src/store/signatures/index.ts';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    failures: { type: 'string', default: '50' },
    runs: { type: 'string', default: '5' },
    mode: { type: 'string', default: 'data' },
    child: { type: 'string' },
  },
});

if (values.child) await child(values.child, values.mode as ScrapeMode);
else await parent();

async function parent(): Promise<void> {
  const base = resolve(`var/bench/e2e-${values.failures}`);
  const report = join(base, 'report');
  const sources = join(base, 'sources');
  if (!existsSync(join(report, 'index.html'))) {
    console.log(
      `generating a ${values.failures}-failure Allure 2 report from a real vitest run in ${base} …`,
    );
    const made = spawnSync('bash', ['bench/make-large-report.sh', report, String(values.failures)], {
      stdio: 'inherit',
      env: { ...process.env, SOURCES_OUT: sources },
    });
    if (made.status !== 0) throw new Error('bench/make-large-report.sh failed');
  }
  const repo = makeRepo(sources);
  const results: Array<{
    failures: number;
    total: number;
    stages: Record<string, number>;
    maxRssMb: number;
  }> = [];
  try {
    for (let i = 0; i < Number(values.runs); i++) {
      const out = await run(process.execPath, [
        '--import',
        'tsx',
        'bench/e2e.bench.ts',
        '--child',
        JSON.stringify({ report, repo: repo.dir, revision: repo.revision }),
        '--mode',
        String(values.mode),
      ]);
      results.push(JSON.parse(out.stdout.trim().split('\n').pop() as string));
    }
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
  const stages = Object.keys(results[0]?.stages ?? {});
  const line = (name: string, xs: number[]) =>
    `${name.padEnd(9)} p50 ${(median(xs) / 1000).toFixed(2)} s (${xs.map((x) => (x / 1000).toFixed(2)).join(', ')})`;
  console.log(
    `${results[0]?.failures} failures, ${results.length} runs, ${values.mode} mode, rules engine, one fresh process per run:`,
  );
  for (const stage of stages)
    console.log(
      `  ${line(
        stage,
        results.map((r) => r.stages[stage] ?? 0),
      )}`,
    );
  console.log(
    `  ${line(
      'total',
      results.map((r) => r.total),
    )}`,
  );
  console.log(
    `  peak RSS ${Math.max(...results.map((r) => r.maxRssMb)).toFixed(0)} MB (Node; Chromium separate in dom mode)`,
  );
  writeFileSync(join(base, 'result.json'), `${JSON.stringify(results, null, 2)}\n`);
}

/** The report's sources as a repository: the base, then a change to the ledger the failures go through. */
function makeRepo(sources: string): { dir: string; revision: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-e2e-repo-'));
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@x',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@x',
      },
    }).trim();
  git('init', '-q');
  execFileSync('cp', ['-r', join(sources, 'src'), join(sources, 'test'), dir]);
  const ledger = join(dir, 'src/ledger.ts');
  const text = readFileSync(ledger, 'utf8');
  writeFileSync(ledger, text.replace(/\n/, '\n// rounding reviewed\n'));
  git('add', '-A');
  git('commit', '-qm', 'base');
  writeFileSync(ledger, text);
  git('commit', '-qam', 'Ledger: drop the review note');
  return { dir, revision: git('rev-parse', 'HEAD') };
}

async function child(arg: string, mode: ScrapeMode): Promise<void> {
  const { report, repo, revision } = JSON.parse(arg) as { report: string; repo: string; revision: string };
  const evidence = mkdtempSync(join(tmpdir(), 'bench-e2e-ev-'));
  const store = new EvidenceStore({ root: evidence });
  const signatures = new SignatureStore(':memory:');
  const stages: Partial<Record<PipelineStage, number>> = {};
  const started = performance.now();
  try {
    const { run: diagnosis } = await diagnoseReport(
      {
        report: { report, platform: 'allure2', mode },
        repo,
        revision,
        project: 'shop',
        branch: 'main',
        target: { runId: 'bench', project: 'shop', change: 1, patchset: 1, reportUrl: null, pageUrl: null },
      },
      {
        store,
        signatures,
        ...(await loadPipelineSettings()),
        engine: rulesEngine,
        checker: evidenceChecker,
        log: pino({ level: 'silent' }),
        progress: { start() {}, tick() {}, done() {} },
        platformsDir: PLATFORMS_DIR,
        onStage: (stage, ms) => {
          stages[stage] = ms;
        },
      },
    );
    const total = performance.now() - started;
    console.log(
      JSON.stringify({
        failures: diagnosis.failures.length,
        total,
        stages,
        maxRssMb: process.resourceUsage().maxRSS / 1024,
      }),
    );
  } finally {
    store.close();
    signatures.close();
    rmSync(evidence, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
