import { join } from 'node:path';
import type { Command } from 'commander';
import type { Logger } from 'pino';
import { evidenceChecker } from '../check/index.ts';
import { chooseEngine, diagnoseReport, loadPipelineSettings, repairReport } from '../diagnose/index.ts';
import { cloneCase, loadCase, pipelineInputOf } from '../eval/case.ts';
import { GitDiffSource, GitObjects } from '../git/index.ts';
import { renderRunPage } from '../page/index.ts';
import { buildReview, gitPatchset, PublishOptions } from '../publish/index.ts';
import type { DiagnosisRun, ScrapeMode } from '../schemas/index.ts';
import { EvidenceStore } from '../store/evidence/index.ts';
import { SignatureStore } from '../store/signatures/index.ts';
import { writeOutput } from './io.ts';
import { createProgress } from './progress.ts';

/** The bundled example: a real change whose real pytest run failed, with its Allure 2 report. */
export const DEMO_CASE = new URL('../../test/corpus/price-rounding/', import.meta.url).pathname;

interface DemoFlags {
  case: string;
  outDir: string;
  mode: ScrapeMode;
}

export function registerDemo(program: Command, log: Logger, platformsDir: string): void {
  program
    .command('demo')
    .description(
      'The whole pipeline on the bundled example: scrape (Chromium) → locate → diagnose → review JSON',
    )
    .option('--case <dir>', 'a corpus case folder', DEMO_CASE)
    .option('--out-dir <dir>', 'where the outputs go', 'out/demo')
    .option('-m, --mode <mode>', 'scrape mode: dom (real Chromium) or data', 'dom')
    .action(async (flags: DemoFlags) => {
      const { facts, run, review, page } = await runDemo(flags, log, platformsDir);
      const out = (name: string) => join(flags.outDir, name);
      writeOutput(out('facts.json'), `${JSON.stringify(facts, null, 2)}\n`);
      writeOutput(out('diagnosis.json'), `${JSON.stringify(run, null, 2)}\n`);
      writeOutput(out('review.json'), `${JSON.stringify(review, null, 2)}\n`);
      writeOutput(out('repair.md'), repairReport(run));
      writeOutput(out('report.html'), page);
      process.stdout.write(`${summary(run, flags.outDir)}\n`);
    });
}

async function runDemo(flags: DemoFlags, log: Logger, platformsDir: string) {
  const { input } = await loadCase(flags.case);
  const clone = await cloneCase(input);
  const store = new EvidenceStore({ root: join(flags.outDir, 'evidence') });
  const signatures = new SignatureStore(':memory:');
  try {
    const engine = await chooseEngine(process.env);
    if (engine.name === 'rules')
      log.warn('no model key configured: the built-in rules engine diagnoses the example');
    const { facts, run } = await diagnoseReport(pipelineInputOf(input, clone.dir, flags.mode), {
      store,
      signatures,
      ...(await loadPipelineSettings()),
      engine,
      checker: evidenceChecker,
      log,
      progress: createProgress(log),
      platformsDir,
    });
    const objects = await GitObjects.openLocal(clone.dir);
    try {
      const page = await renderRunPage({
        run,
        facts,
        evidence: store,
        code: { read: (path) => objects.readFile(run.change.revision, path) },
        links: { self: '/runs/demo', evidenceForm: '/runs/demo/evidence' },
      });
      return { facts, run, page, review: await reviewOf(run, objects) };
    } finally {
      await objects.close();
    }
  } finally {
    store.close();
    signatures.close();
    await clone.remove();
  }
}

async function reviewOf(run: DiagnosisRun, objects: GitObjects) {
  const view = gitPatchset(objects, new GitDiffSource(objects), run.change.revision);
  return (await buildReview(run, view, PublishOptions.parse({}))).review;
}

function summary(run: DiagnosisRun, outDir: string): string {
  const lines = [
    `${run.failures.length} failures diagnosed (${run.engine.name === 'rules' ? 'rules engine' : run.engine.model})`,
  ];
  for (const f of run.failures) {
    const place =
      f.place.file === null
        ? 'place not confirmed'
        : `${f.place.file}${f.place.function ? ` ${f.place.function}` : ''} (${f.place.level})`;
    lines.push(`  ${f.verdict} · ${f.category} · ${place}\n    ${f.test}`);
  }
  lines.push(
    `written to ${outDir}/: facts.json, diagnosis.json, review.json (what would be posted to Gerrit), repair.md, report.html (the report page)`,
  );
  return lines.join('\n');
}
