import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import type { Logger } from 'pino';
import { scrapeReport } from '../../scraper/index.ts';
import { describeError, isDiagnosisError } from '../errors/index.ts';
import { createLocator, DEFAULT_RULES_PATH, locateDocument, openLocatorDeps } from '../locate/index.ts';
import { createLogger } from '../log.ts';
import { type FactsDocument, ScrapeMode } from '../schemas/index.ts';
import { EvidenceStore } from '../store/evidence/index.ts';
import { registerDemo } from './demo.ts';
import { registerDiagnose } from './diagnose.ts';
import { registerEval } from './eval.ts';
import { readFacts, writeOutput } from './io.ts';
import { createProgress } from './progress.ts';
import { registerPublish } from './publish.ts';
import { registerServe } from './serve.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const PLATFORMS_DIR = join(ROOT, 'config/platforms');
export const EXAMPLE_REPORT = join(ROOT, 'test/fixtures/reports/allure2');

interface ScrapeFlags {
  out?: string;
  platform?: string;
  mode?: ScrapeMode;
  evidenceDir: string;
  repository?: string;
  change?: string;
  patchset?: number;
  revision?: string;
  concurrency?: number;
  timeout?: number;
}

/** Runs the CLI and returns the exit code; errors name their input and never escape as stacks. */
export async function main(argv: string[], log: Logger = createLogger()): Promise<number> {
  const program = buildProgram(log);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err: unknown) {
    if (isDiagnosisError(err)) {
      log.error({ code: err.code, input: err.input }, err.message);
      process.stderr.write(`error [${err.code}]: ${err.message}\n`);
      return 2;
    }
    if (err instanceof Error && 'exitCode' in err && typeof err.exitCode === 'number') return err.exitCode;
    log.error({ err }, 'unexpected failure');
    process.stderr.write(`error: ${describeError(err)}\n`);
    return 1;
  }
}

function buildProgram(log: Logger): Command {
  const program = new Command('ci-diagnosis')
    .description('Diagnoses failed Gerrit CI runs from their test reports')
    .exitOverride()
    .showHelpAfterError();
  program
    .command('scrape')
    .description('Turn a test report (URL, folder or file) into a facts JSON')
    .argument('<report>', 'report URL (http://…), folder or JUnit XML file')
    .option('-o, --out <file>', 'write the facts JSON here (default: stdout)')
    .option('-p, --platform <name>', 'allure2 | allure3 | junit | generic:<name> (default: detect)')
    .option('-m, --mode <mode>', 'data | dom | file (default: the platform’s first)', parseMode)
    .option('--evidence-dir <dir>', 'evidence store folder', 'var/evidence')
    .option('--repository <name>', 'repository the run built')
    .option('--change <id>', 'Gerrit change id or number')
    .option('--patchset <n>', 'patchset number', parsePositive)
    .option('--revision <sha>', 'revision the run built')
    .option('--concurrency <n>', 'parallel pages or requests', parsePositive)
    .option('--timeout <ms>', 'per-page timeout in ms', parsePositive)
    .action(async (report: string, flags: ScrapeFlags) => {
      const facts = await runScrape(report, flags, log);
      const json = `${JSON.stringify(facts, null, 2)}\n`;
      writeOutput(flags.out, json);
      summarise(facts, flags.out);
    });
  program
    .command('locate')
    .description(
      'Re-anchor the facts’ stack locations at a revision: verified candidates with a confidence level',
    )
    .requiredOption('--facts <file>', 'facts JSON from `scrape`')
    .requiredOption(
      '--repo <path|url>',
      'git repository path, or a remote kept as a bare mirror (read from git objects only)',
    )
    .option('--cache-dir <dir>', 'where mirrors of remote repositories are kept', 'var/repos')
    .requiredOption('--revision <sha>', 'the revision under review')
    .option('--report-revision <sha>', 'the revision the report was built from, if it differs or is known')
    .option('--diff-base <sha>', 'what the change is diffed against (default: first parent)')
    .option('--rules <file>', 'path-mapping rules', DEFAULT_RULES_PATH)
    .option('-o, --out <file>', 'write the located facts here (default: stdout)')
    .action(async (flags: LocateFlags) => {
      const located = await runLocate(flags);
      const json = `${JSON.stringify(located, null, 2)}\n`;
      writeOutput(flags.out, json);
    });
  program
    .command('evidence')
    .description('Print a fragment of one evidence item by id and line range')
    .argument('<id>', 'evidence id (ev_…)')
    .option('--from <n>', 'first line (1-based)', parsePositive, 1)
    .option('--to <n>', 'last line (inclusive)', parsePositive)
    .option('--evidence-dir <dir>', 'evidence store folder', 'var/evidence')
    .action(async (id: string, flags: { from: number; to?: number; evidenceDir: string }) => {
      const store = new EvidenceStore({ root: flags.evidenceDir });
      try {
        const fragment = await store.readFragment(id, flags.from, flags.to ?? flags.from + 199);
        process.stdout.write(`${JSON.stringify(fragment, null, 2)}\n`);
      } finally {
        store.close();
      }
    });
  registerDemo(program, log, PLATFORMS_DIR);
  registerPublish(program, log);
  registerDiagnose(program, log, PLATFORMS_DIR);
  registerServe(program, log, PLATFORMS_DIR);
  registerEval(program, log, PLATFORMS_DIR);
  return program;
}

interface LocateFlags {
  facts: string;
  repo: string;
  cacheDir: string;
  revision: string;
  reportRevision?: string;
  diffBase?: string;
  rules: string;
  out?: string;
}

async function runLocate(flags: LocateFlags): Promise<FactsDocument> {
  const facts = readFacts(flags.facts);
  const deps = await openLocatorDeps(flags.repo, { rulesPath: flags.rules, cacheDir: flags.cacheDir });
  try {
    return await locateDocument(
      facts,
      {
        repository: facts.run.repository ?? basename(resolve(flags.repo)),
        revision: flags.revision,
        reportRevision: flags.reportRevision ?? null,
        diffBase: flags.diffBase ?? null,
      },
      createLocator(deps),
    );
  } finally {
    await deps.close();
  }
}

async function runScrape(report: string, flags: ScrapeFlags, log: Logger): Promise<FactsDocument> {
  const store = new EvidenceStore({ root: flags.evidenceDir });
  try {
    return await scrapeReport(
      {
        input: report,
        ...(flags.platform ? { platform: flags.platform } : {}),
        ...(flags.mode ? { mode: flags.mode } : {}),
        run: {
          repository: flags.repository ?? null,
          change_id: flags.change ?? null,
          patchset: flags.patchset ?? null,
          revision_sha: flags.revision ?? null,
        },
        limits: {
          ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
          ...(flags.timeout ? { pageTimeoutMs: flags.timeout } : {}),
        },
      },
      { store, log, progress: createProgress(log), platformsDir: PLATFORMS_DIR },
    );
  } finally {
    store.close();
  }
}

const SUMMARY_MAX = 20;

/** A short human summary on a terminal (or always, for the demo); nothing extra in pipelines. */
function summarise(facts: FactsDocument, out: string | undefined, always = false): void {
  if (!always && !process.stdout.isTTY) return;
  if (!always && out === undefined) return;
  const lines = [`${facts.issues.length} failures from ${facts.run.platform} (${facts.run.mode} mode)`];
  for (const issue of facts.issues.slice(0, SUMMARY_MAX)) {
    const where =
      issue.locations.find((l) => l.role === 'failure') ?? issue.locations.find((l) => l.role === 'test');
    const place = where ? `${where.file}:${where.line ?? '?'}` : 'no location';
    lines.push(`  ${issue.id} [${issue.category}] ${issue.summary.slice(0, 90)}  → ${place}`);
  }
  if (facts.issues.length > SUMMARY_MAX)
    lines.push(`  … and ${facts.issues.length - SUMMARY_MAX} more in the facts file`);
  if (out) lines.push(`facts written to ${out}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function parseMode(value: string): ScrapeMode {
  const parsed = ScrapeMode.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`mode must be one of ${ScrapeMode.options.join(', ')}`);
  return parsed.data;
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}
