import { z } from 'zod';
import { openContext } from '../context/index.ts';
import { diagnoseContext, type PipelineDeps, scrape } from '../diagnose/index.ts';
import { DiagnosisError, isDiagnosisError } from '../errors/index.ts';
import { changeIdOf, type GerritClient } from '../gerrit/index.ts';
import type { GitNetworkLimit } from '../git/index.ts';
import { createLocator, type LocatorDeps, locateDocument, openLocatorDeps } from '../locate/index.ts';
import { type PublishOptions, publishDiagnosis } from '../publish/index.ts';
import { DiagnosisRun, FactsDocument } from '../schemas/index.ts';
import {
  type Job,
  markerRunId,
  type Run,
  type RunStore,
  type Stage,
  type StageCompletion,
} from '../store/runs/index.ts';

/** Where the run's code is: the repository, the revision and the ref to fetch it by. */
export const RunTarget = z.object({
  repo: z.string(),
  revision: z.string(),
  ref: z.string().nullable(),
  branch: z.string(),
});
export type RunTarget = z.infer<typeof RunTarget>;

export interface StageDeps {
  runs: RunStore;
  pipeline: PipelineDeps;
  gerrit: GerritClient | null;
  /** The repository of a project: a local path or a remote URL (credentials allowed; they are redacted). */
  repoFor(project: string | null): string;
  cacheDir: string;
  /** One for the whole process (limits.gitConcurrency): clones and fetches of every run share it. */
  gitLimit: GitNetworkLimit;
  publish: Partial<PublishOptions>;
  /** Our page for a run, linked from the Gerrit summary; null without a public URL. */
  pageUrl(runId: string): string | null;
}

/**
 * One stage of one run. Every stage may run again after a crash, so each is idempotent: it reads
 * the outputs of the stages before it from the store and writes only its own; publishing is
 * idempotent through the marker the publisher looks for in Gerrit before it posts.
 */
export async function runStage(job: Job, run: Run, deps: StageDeps): Promise<StageCompletion> {
  const stages: Record<Stage, () => Promise<StageCompletion>> = {
    scrape: async () => ({ output: await scrapeStage(run, deps) }),
    context: async () => ({ output: await contextStage(run, deps) }),
    locate: async () => ({ output: await locateStage(run, deps) }),
    diagnose: async () => ({ output: await diagnoseStage(job, run, deps) }),
    // The checker runs on every failure inside the diagnose stage (with its repair round).
    check: async () => ({ skipped: true }),
    publish: () => publishStage(job, run, deps),
    // The page is rendered from the stored outputs when it is asked for.
    page: async () => ({ skipped: true }),
  };
  return stages[job.stage]();
}

async function scrapeStage(run: Run, deps: StageDeps): Promise<FactsDocument> {
  const { request } = run;
  return scrape(
    { report: request.report_url, ...(request.platform === null ? {} : { platform: request.platform }) },
    deps.pipeline,
    { revision_sha: request.revision ?? '', repository: request.project ?? '' },
  );
}

async function contextStage(run: Run, deps: StageDeps): Promise<RunTarget> {
  const { project, change, patchset, revision } = run.request;
  const repo = deps.repoFor(project);
  if (deps.gerrit === null || project === null || change === null || patchset === null) {
    if (revision === null) {
      throw new DiagnosisError(
        'INVALID_ARGUMENT',
        `run ${run.id} names no revision and no Gerrit patchset to find it by`,
        {
          input: run.id,
        },
      );
    }
    return { repo, revision, ref: null, branch: 'main' };
  }
  const id = changeIdOf(project, change);
  const [info, commit] = await Promise.all([deps.gerrit.getChange(id), deps.gerrit.getCommit(id, patchset)]);
  const sha = revision ?? commit.commit;
  if (sha === undefined)
    throw new DiagnosisError('REVISION_NOT_FOUND', `Gerrit named no commit for ${id} patchset ${patchset}`, {
      input: id,
    });
  return { repo, revision: sha, ref: changeRef(change, patchset), branch: info.branch };
}

/** Gerrit's fetch ref of a patchset: refs/changes/<last two digits>/<change>/<patchset>. */
export function changeRef(change: number, patchset: number): string {
  return `refs/changes/${String(change % 100).padStart(2, '0')}/${change}/${patchset}`;
}

/** The run's repository with its revision present (fetched by its Gerrit ref if need be), closed after `use`. */
async function withCode<T>(
  run: Run,
  deps: StageDeps,
  use: (locator: LocatorDeps, target: RunTarget) => Promise<T>,
): Promise<T> {
  const target = RunTarget.parse(await outputOf(deps.runs, run.id, 'context'));
  const locator = await openLocatorDeps(target.repo, {
    cacheDir: deps.cacheDir,
    project: run.request.project ?? 'default',
    gitLimit: deps.gitLimit,
  });
  try {
    await locator.objects.ensure(target.ref ?? target.revision);
    return await use(locator, target);
  } finally {
    await locator.close();
  }
}

async function locateStage(run: Run, deps: StageDeps): Promise<FactsDocument> {
  const facts = FactsDocument.parse(await outputOf(deps.runs, run.id, 'scrape'));
  return withCode(run, deps, async (locator, target) =>
    locateDocument(
      facts,
      {
        repository: run.request.project ?? 'default',
        revision: target.revision,
        reportRevision: await reportRevisionOf(run, locator, deps),
        diffBase: null,
      },
      createLocator(locator),
    ),
  );
}

/**
 * The commit CI says it tested, when it is here or can be fetched. One the remote does not have
 * (a merge CI made and never pushed) leaves the report's lines untrusted instead of failing the run.
 */
async function reportRevisionOf(run: Run, locator: LocatorDeps, deps: StageDeps): Promise<string | null> {
  const revision = run.request.report_revision;
  if (revision === null) return null;
  try {
    return await locator.objects.ensure(revision);
  } catch (err: unknown) {
    if (!isDiagnosisError(err) || err.code !== 'REVISION_NOT_FOUND') throw err;
    deps.pipeline.log.warn(
      { run: run.id, report_revision: revision, err: err.message },
      "the report's revision is not to be had: its line numbers are not trusted",
    );
    return null;
  }
}

async function diagnoseStage(job: Job, run: Run, deps: StageDeps): Promise<DiagnosisRun> {
  const facts = FactsDocument.parse(await outputOf(deps.runs, run.id, 'locate'));
  return withCode(run, deps, async (locator, target) => {
    const ctx = await openContext({ ...locator, evidence: deps.pipeline.store }, facts, {
      revision: target.revision,
    });
    const { project, change, patchset, report_url } = run.request;
    const runTarget = {
      // A later round (QA evidence) publishes under its own id, or the marker check would hold it back.
      runId: markerRunId(run.id, job.round),
      project,
      change,
      patchset,
      reportUrl: /^https?:\/\//.test(report_url) ? report_url : null,
      pageUrl: deps.pageUrl(run.id),
    };
    const input = {
      project: project ?? 'default',
      branch: target.branch,
      revision: target.revision,
      target: runTarget,
    };
    return diagnoseContext(ctx, input, deps.pipeline);
  });
}

async function publishStage(job: Job, run: Run, deps: StageDeps): Promise<StageCompletion> {
  const diagnosis = DiagnosisRun.parse(await outputOf(deps.runs, run.id, 'diagnose'));
  if (deps.gerrit === null || diagnosis.change.number === null) return { skipped: true };
  const result = await publishDiagnosis(
    { client: deps.gerrit, log: deps.pipeline.log },
    diagnosis,
    deps.publish,
  );
  if (result.status === 'dry_run') return { skipped: true };
  const messageId = result.status === 'posted' ? null : result.message_id;
  return {
    output: { status: result.status, digest: result.digest },
    post: { digest: result.digest, status: result.status, message_id: messageId, round: job.round },
  };
}

async function outputOf(runs: RunStore, runId: string, stage: Stage): Promise<unknown> {
  const result = await runs.output(runId, stage);
  if (result === null)
    throw new DiagnosisError('STORE_ERROR', `run ${runId} has no ${stage} output`, { input: runId });
  return result.output;
}
