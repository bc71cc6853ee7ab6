import type { Logger } from 'pino';
import type { Progress } from '../../scraper/index.ts';
import { scrapeReport } from '../../scraper/index.ts';
import { type DiagnosisContext, openContext } from '../context/index.ts';
import { createLocator, locateDocument, openLocatorDeps } from '../locate/index.ts';
import type { DiagnosisRun, FactsDocument, ScrapeMode } from '../schemas/index.ts';
import { type Mask, triageIssue } from '../signals/index.ts';
import type { ModuleMap } from '../skill/index.ts';
import type { EvidenceStore } from '../store/evidence/index.ts';
import { recordFacts, type SignatureStore } from '../store/signatures/index.ts';
import type { Checker, Engine } from './ports.ts';
import { diagnoseRun, type RunTarget } from './run.ts';

export interface ReportRef {
  report: string;
  /** allure2 | allure3 | junit | generic:NAME; detected when absent. */
  platform?: string;
  mode?: ScrapeMode;
}

export interface PipelineInput {
  /** The report to scrape, or facts scraped before (`facts`, whose evidence is in the store). */
  report: ReportRef | { facts: FactsDocument };
  /** Local repository path or remote URL. */
  repo: string;
  revision: string;
  /** Default: the revision's first parent. */
  base?: string | null;
  /**
   * The commit the report's tests ran on, when CI says so: only then are the report's line
   * numbers lines of a known revision (the locator trusts them where the file did not change
   * between it and `revision`). Unknown (null) by default.
   */
  reportRevision?: string | null;
  project: string;
  branch: string;
  /** Earlier runs of the target branch (mainline): their failures feed the signature history. */
  history?: Array<ReportRef & { revision: string }>;
  target: RunTarget;
}

export type PipelineStage = 'history' | 'scrape' | 'locate' | 'context' | 'diagnose';

export interface PipelineDeps {
  store: EvidenceStore;
  signatures: SignatureStore | null;
  /** Signature masks of a project (loadPipelineSettings). */
  masks: (project: string | null) => readonly Mask[];
  engine: Engine;
  checker: Checker;
  /** Module borders for delegation (config/modules.json); none → no delegation. */
  modules?: ModuleMap;
  /** See FailureDeps.gate (evaluation ablations only). */
  gate?: boolean;
  /** Tokens for the whole run (see RunDeps.runTokens). */
  runTokens?: number;
  /** Failures diagnosed at once (see RunDeps.concurrency). */
  concurrency?: number;
  /** Told each stage's wall time, for metrics and benchmarks. */
  onStage?: (stage: PipelineStage, ms: number) => void;
  log: Logger;
  progress: Progress;
  platformsDir: string;
  rulesPath?: string;
  cacheDir?: string;
}

/**
 * Report in, diagnosis out: scrape, feed the history, locate at the revision, open the
 * context, then triage, engine and checker per failure. The run's own failures are recorded
 * after the diagnosis (a change's run must not count as its own history).
 */
export async function diagnoseReport(
  input: PipelineInput,
  deps: PipelineDeps,
): Promise<{ facts: FactsDocument; run: DiagnosisRun }> {
  const timed = stageTimer(deps.onStage);
  await timed('history', () => feedHistory(input, deps));
  const { report } = input;
  const scraped = await timed('scrape', async () =>
    'facts' in report
      ? report.facts
      : scrape(report, deps, { revision_sha: input.revision, repository: input.project }),
  );
  const locatorDeps = await openLocatorDeps(input.repo, {
    ...(deps.rulesPath === undefined ? {} : { rulesPath: deps.rulesPath }),
    ...(deps.cacheDir === undefined ? {} : { cacheDir: deps.cacheDir }),
    project: input.project,
  });
  try {
    const target = {
      repository: input.project,
      revision: input.revision,
      reportRevision: input.reportRevision ?? null,
      diffBase: input.base ?? null,
    };
    const facts = await timed('locate', () => locateDocument(scraped, target, createLocator(locatorDeps)));
    const ctx = await timed('context', () =>
      openContext({ ...locatorDeps, evidence: deps.store }, facts, {
        revision: input.revision,
        ...(input.base === undefined ? {} : { base: input.base }),
      }),
    );
    const run = await timed('diagnose', () => diagnoseContext(ctx, input, deps));
    return { facts, run };
  } finally {
    await locatorDeps.close();
  }
}

/** Triage, engine and checker for every failure, then the run's failures join the signature history. */
export async function diagnoseContext(
  ctx: DiagnosisContext,
  input: Pick<PipelineInput, 'project' | 'branch' | 'target' | 'revision'>,
  deps: PipelineDeps,
): Promise<DiagnosisRun> {
  const triageDeps = {
    signatures: deps.signatures,
    masks: deps.masks(input.project),
    project: input.project,
    branch: input.branch,
    change: input.target.change,
    runId: input.target.runId,
  };
  const run = await diagnoseRun(ctx, input.target, {
    engine: deps.engine,
    checker: deps.checker,
    ...(deps.modules === undefined ? {} : { modules: deps.modules }),
    ...(deps.gate === undefined ? {} : { gate: deps.gate }),
    ...(deps.runTokens === undefined ? {} : { runTokens: deps.runTokens }),
    ...(deps.concurrency === undefined ? {} : { concurrency: deps.concurrency }),
    log: deps.log,
    triager: { triage: (issue, c) => triageIssue(issue, c, triageDeps) },
  });
  if (deps.signatures !== null && input.target.change !== null) {
    recordFacts(deps.signatures, ctx.facts, {
      ...triageDeps,
      run_id: input.target.runId,
      revision: input.revision,
      ...(ctx.facts.run.passed_tests === undefined ? {} : { passed: ctx.facts.run.passed_tests }),
    });
  }
  return run;
}

function stageTimer(onStage: PipelineDeps['onStage']) {
  return async <T>(stage: PipelineStage, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      onStage?.(stage, performance.now() - started);
    }
  };
}

async function feedHistory(input: PipelineInput, deps: PipelineDeps): Promise<void> {
  if (deps.signatures === null) return;
  for (const past of input.history ?? []) {
    const facts = await scrape(past, deps, { revision_sha: past.revision, repository: input.project });
    recordFacts(deps.signatures, facts, {
      run_id: `history:${past.report}`,
      branch: input.branch,
      change: null,
      project: input.project,
      revision: past.revision,
      masks: deps.masks(input.project),
      ...(facts.run.passed_tests === undefined ? {} : { passed: facts.run.passed_tests }),
    });
  }
}

export function scrape(
  ref: ReportRef,
  deps: PipelineDeps,
  run: { revision_sha: string; repository: string },
): Promise<FactsDocument> {
  return scrapeReport(
    {
      input: ref.report,
      ...(ref.platform === undefined ? {} : { platform: ref.platform }),
      ...(ref.mode === undefined ? {} : { mode: ref.mode }),
      run,
    },
    { store: deps.store, log: deps.log, progress: deps.progress, platformsDir: deps.platformsDir },
  );
}
