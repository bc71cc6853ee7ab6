import pLimit from 'p-limit';
import type { DiagnosisContext } from '../context/index.ts';
import type { DiagnosisRun, FailureDiagnosis } from '../schemas/index.ts';
import { diagnoseFailure, type FailureDeps } from './failure.ts';
import type { Triager } from './ports.ts';

export interface RunDeps extends FailureDeps {
  triager: Triager;
  /** Failures diagnosed at once (model calls are the scarce resource). */
  concurrency?: number;
  now?: () => Date;
}

export interface RunTarget {
  runId: string;
  project: string | null;
  change: number | null;
  patchset: number | null;
  reportUrl: string | null;
  pageUrl: string | null;
}

/**
 * Every failure of one run, in report order: triage, engine, checker. The engine line says
 * which engine spoke and, when a model failed and the rules took over, that it did.
 */
export async function diagnoseRun(
  ctx: DiagnosisContext,
  target: RunTarget,
  deps: RunDeps,
): Promise<DiagnosisRun> {
  const limit = pLimit(Math.max(1, deps.concurrency ?? 2));
  const outcomes = await Promise.all(
    ctx.facts.issues.map((issue) =>
      limit(async () => diagnoseFailure(issue, await deps.triager.triage(issue, ctx), ctx, deps)),
    ),
  );
  const fellBack = outcomes.filter((o) => o.fellBack !== null).length;
  const failures: FailureDiagnosis[] = outcomes.map((o) => o.diagnosis);
  return {
    schema_version: 1,
    run_id: target.runId,
    change: {
      project: target.project,
      number: target.change,
      patchset: target.patchset,
      revision: ctx.revision,
    },
    report_url: target.reportUrl,
    page_url: target.pageUrl,
    engine: {
      name: deps.engine.name,
      model: deps.engine.model,
      note: engineNote(deps.engine.name, fellBack, failures.length),
    },
    created_at: (deps.now?.() ?? new Date()).toISOString(),
    failures,
  };
}

function engineNote(name: 'rules' | 'model', fellBack: number, total: number): string | null {
  if (name === 'rules') return 'no model key configured: built-in rules engine';
  if (fellBack === 0) return null;
  return `the model failed on ${fellBack} of ${total} failures; the rules engine diagnosed those`;
}
