import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { PipelineInput } from '../diagnose/index.ts';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { GitRunner } from '../git/index.ts';
import { RootCause, type ScrapeMode, Verdict } from '../schemas/index.ts';

const Sha = z.string().regex(/^[0-9a-f]{40}$/, 'a full commit sha');
const ReportRef = z.object({ path: z.string().min(1), platform: z.string().min(1) });

/** `case.json` of a corpus case (README "Corpus format"). `truth` is read only to score. */
export const CorpusCase = z.object({
  id: z.string().regex(/^[A-Za-z0-9._-]+$/),
  description: z.string(),
  repository: z.string().min(1),
  base: Sha,
  revision: Sha,
  report: ReportRef,
  history: z.array(ReportRef.extend({ revision: Sha })).default([]),
  /** The project's main language (real-bug cases), for the per-language breakdown. */
  language: z.string().min(1).optional(),
  /**
   * Where a real-bug case comes from (the upstream commit and how the change was made from it).
   * Like the truth it is for people and scoring, never for the engine: it names the fix.
   */
  provenance: z
    .object({
      upstream: z.string().min(1),
      commit: Sha,
      url: z.string().url(),
      method: z.string().min(1),
      summary: z.string(),
    })
    .optional(),
  truth: z.object({
    verdict: Verdict.exclude(['need_evidence']),
    category: RootCause.exclude(['need_evidence']),
    failures: z.number().int().nonnegative(),
    locations: z.array(
      z.object({
        file: z.string(),
        function: z.string().nullable(),
        lines: z.tuple([z.number().int().positive(), z.number().int().positive()]),
      }),
    ),
  }),
});
export type CorpusCase = z.infer<typeof CorpusCase>;

/** What an engine may be given: everything but the truth and the provenance. */
export type CaseInput = Omit<CorpusCase, 'truth' | 'provenance' | 'language'> & { dir: string };

/** What the scores are grouped by: read beside the truth, never given to the engine. */
export interface CaseMeta {
  language: string | null;
  /** True for a case made from a real upstream commit (it has a provenance). */
  real: boolean;
}

export async function loadCase(
  dir: string,
): Promise<{ input: CaseInput; truth: CorpusCase['truth']; meta: CaseMeta }> {
  const file = join(dir, 'case.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err: unknown) {
    throw new DiagnosisError('CORPUS_INVALID', `${file} could not be read as JSON: ${describeError(err)}`, {
      input: file,
      cause: err,
    });
  }
  const parsed = CorpusCase.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DiagnosisError(
      'CORPUS_INVALID',
      `${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
      {
        input: file,
      },
    );
  }
  const { truth, provenance, language, ...rest } = parsed.data;
  return {
    input: { ...rest, dir: resolve(dir) },
    truth,
    meta: { language: language ?? null, real: provenance !== undefined },
  };
}

/** A throwaway clone of the case's bundle; `remove()` deletes it. */
export async function cloneCase(input: CaseInput): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `case-${input.id}-`));
  const bundle = join(input.dir, 'repo.bundle');
  await new GitRunner(dir).run(['clone', '-q', '--no-checkout', bundle, join(dir, 'repo')]);
  const repo = join(dir, 'repo');
  // The bundle's branches arrive as remote refs; the revisions must resolve as objects.
  await new GitRunner(repo).run(['cat-file', '-e', `${input.revision}^{commit}`]);
  return { dir: repo, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * What the pipeline gets for a case: its report, its repository clone, the revision and base, and
 * the target branch's history — never the truth. The case stands for change 1, patchset 1.
 */
export function pipelineInputOf(input: CaseInput, repo: string, mode?: ScrapeMode): PipelineInput {
  return {
    report: {
      report: join(input.dir, input.report.path),
      platform: input.report.platform,
      ...(mode ? { mode } : {}),
    },
    repo,
    revision: input.revision,
    // The case's report is the CI run of the revision (README "Case format"), as CI would say.
    reportRevision: input.revision,
    base: input.base,
    project: input.repository,
    branch: 'main',
    history: input.history.map((h) => ({
      report: join(input.dir, h.path),
      platform: h.platform,
      revision: h.revision,
    })),
    target: {
      runId: `case-${input.id}`,
      project: input.repository,
      change: 1,
      patchset: 1,
      reportUrl: null,
      pageUrl: null,
    },
  };
}
