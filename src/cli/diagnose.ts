import { basename, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { Logger } from 'pino';
import { evidenceChecker } from '../check/index.ts';
import {
  chooseEngine,
  DEFAULT_RUN_TOKENS,
  diagnoseReport,
  loadPipelineSettings,
  type PipelineInput,
  repairReport,
} from '../diagnose/index.ts';
import { DiagnosisError } from '../errors/index.ts';
import { GerritClient } from '../gerrit/index.ts';
import { GitDiffSource, GitObjects } from '../git/index.ts';
import { buildReview, gitPatchset, PublishOptions, publishDiagnosis } from '../publish/index.ts';
import type { DiagnosisRun } from '../schemas/index.ts';
import { EvidenceStore } from '../store/evidence/index.ts';
import { SignatureStore } from '../store/signatures/index.ts';
import { readFacts, writeOutput } from './io.ts';
import { createProgress } from './progress.ts';
import { gerritCredentials } from './publish.ts';

interface DiagnoseFlags {
  report?: string;
  facts?: string;
  platform?: string;
  repo: string;
  revision: string;
  base?: string;
  reportRevision?: string;
  project?: string;
  branch: string;
  change?: number;
  patchset?: number;
  history: Array<{ platform: string; report: string; revision: string }>;
  engine?: 'rules' | 'claude';
  model?: string;
  out?: string;
  repairReport?: string;
  reviewOut?: string;
  dryRun?: boolean;
  post?: boolean;
  gerrit?: string;
  evidenceDir: string;
  signaturesDir: string;
  runId?: string;
}

export function registerDiagnose(program: Command, log: Logger, platformsDir: string): void {
  program
    .command('diagnose')
    .description('Diagnose every failure of a report against the repository at a revision')
    .option('--report <url|dir|file>', 'the failed run’s test report')
    .option('--facts <file>', 'or: facts JSON scraped before (its evidence in --evidence-dir)')
    .requiredOption('--repo <path|url>', 'the repository (local path, or a remote kept as a mirror)')
    .requiredOption('--revision <sha>', 'the revision the run built')
    .option('--base <sha>', 'what the change is diffed against (default: first parent)')
    .option(
      '--report-revision <sha>',
      'the commit the report ran on, when CI says so: then its lines are trusted',
    )
    .option('-p, --platform <name>', 'allure2 | allure3 | junit | generic:<name> (default: detect)')
    .option('--project <name>', 'project name (default: the repository folder)')
    .option('--branch <name>', 'target branch of the change', 'main')
    .option('--change <n>', 'Gerrit change number', positive)
    .option('--patchset <n>', 'patchset number', positive)
    .option(
      '--history <platform:path@sha>',
      'an earlier report of the target branch (repeatable)',
      collectHistory,
      [],
    )
    .option('--engine <name>', 'rules | claude (default: claude when ANTHROPIC_API_KEY is set)', engineName)
    .option('--model <name>', 'model for the claude engine')
    .option('-o, --out <file>', 'diagnosis JSON (default: stdout)')
    .option('--repair-report <file>', 'write the run’s repair report (markdown) here')
    .option('--review-out <file>', 'write the Gerrit review JSON this diagnosis would post (gated by git)')
    .option('--dry-run', 'print the review JSON that would be posted (gated by git) instead of the diagnosis')
    .option('--post', 'post the diagnosis on the change (needs --gerrit, --project, --change, --patchset)')
    .option(
      '--gerrit <url>',
      'Gerrit base URL for --post; credentials from GERRIT_USERNAME and GERRIT_PASSWORD(_FILE)',
    )
    .option('--evidence-dir <dir>', 'evidence store folder', 'var/evidence')
    .option('--signatures-dir <dir>', 'failure signature history folder', 'var/signatures')
    .option('--run-id <id>', 'run id (default: derived from the revision and time)')
    .action(async (flags: DiagnoseFlags) => {
      if (flags.post && flags.gerrit === undefined) {
        throw new DiagnosisError('INVALID_ARGUMENT', '--post needs --gerrit <url>', { input: 'gerrit' });
      }
      const run = await runDiagnose(flags, log, platformsDir);
      // A dry run prints the review; the diagnosis then goes only to --out, if given.
      if (!flags.dryRun || flags.out !== undefined)
        writeOutput(flags.out, `${JSON.stringify(run, null, 2)}\n`);
      if (flags.dryRun) await writeReview(run, flags.repo, undefined);
      if (flags.repairReport !== undefined) writeOutput(flags.repairReport, repairReport(run));
      if (flags.reviewOut !== undefined) await writeReview(run, flags.repo, flags.reviewOut);
      if (flags.post && flags.gerrit !== undefined) {
        const client = new GerritClient({ baseUrl: flags.gerrit, ...gerritCredentials(process.env) });
        const result = await publishDiagnosis({ client, log }, run);
        log.warn({ status: result.status, digest: result.digest }, 'diagnosis published');
      }
    });
}

async function runDiagnose(flags: DiagnoseFlags, log: Logger, platformsDir: string): Promise<DiagnosisRun> {
  const project = flags.project ?? basename(resolve(flags.repo)).replace(/\.git$/, '');
  const engine = await chooseEngine(process.env, {
    ...(flags.engine ? { engine: flags.engine } : {}),
    ...(flags.model ? { model: flags.model } : {}),
  });
  if (engine.name === 'rules')
    log.warn('no model key configured: the built-in rules engine diagnoses this run');
  const store = new EvidenceStore({ root: flags.evidenceDir });
  const signatures = new SignatureStore(flags.signaturesDir);
  try {
    const { run } = await diagnoseReport(
      {
        report: reportOf(flags),
        repo: flags.repo,
        revision: flags.revision,
        ...(flags.base ? { base: flags.base } : {}),
        ...(flags.reportRevision ? { reportRevision: flags.reportRevision } : {}),
        project,
        branch: flags.branch,
        history: flags.history,
        target: {
          runId: flags.runId ?? `${flags.revision.slice(0, 12)}-${Date.now().toString(36)}`,
          project,
          change: flags.change ?? null,
          patchset: flags.patchset ?? null,
          reportUrl: flags.report !== undefined && /^https?:\/\//.test(flags.report) ? flags.report : null,
          pageUrl: null,
        },
      },
      {
        store,
        signatures,
        ...(await loadPipelineSettings()),
        engine,
        checker: evidenceChecker,
        runTokens: DEFAULT_RUN_TOKENS,
        log,
        progress: createProgress(log),
        platformsDir,
      },
    );
    return run;
  } finally {
    store.close();
    signatures.close();
  }
}

async function writeReview(run: DiagnosisRun, repo: string, out: string | undefined): Promise<void> {
  const objects = await GitObjects.openLocal(repo);
  try {
    const view = gitPatchset(objects, new GitDiffSource(objects), run.change.revision);
    const { review } = await buildReview(run, view, PublishOptions.parse({}));
    writeOutput(out, `${JSON.stringify(review, null, 2)}\n`);
  } finally {
    await objects.close();
  }
}

function reportOf(flags: DiagnoseFlags): PipelineInput['report'] {
  if (flags.facts !== undefined) return { facts: readFacts(flags.facts) };
  if (flags.report === undefined) {
    throw new DiagnosisError('INVALID_ARGUMENT', 'diagnose needs --report <url|dir|file> or --facts <file>', {
      input: 'report',
    });
  }
  return { report: flags.report, ...(flags.platform ? { platform: flags.platform } : {}) };
}

function collectHistory(value: string, previous: DiagnoseFlags['history']): DiagnoseFlags['history'] {
  const match = /^([a-z0-9:_-]+):(.+)@([0-9a-f]{7,40})$/.exec(value);
  if (match === null)
    throw new InvalidArgumentError(`"${value}" is not PLATFORM:PATH@SHA (e.g. allure2:history/base@1a2b3c4)`);
  return [
    ...previous,
    { platform: match[1] as string, report: match[2] as string, revision: match[3] as string },
  ];
}

function engineName(value: string): 'rules' | 'claude' {
  if (value !== 'rules' && value !== 'claude')
    throw new InvalidArgumentError('engine must be rules or claude');
  return value;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}
