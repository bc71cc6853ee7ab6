import pLimit from 'p-limit';
import type { DiagnosisContext } from '../context/index.ts';
import type { DiagnosisRun, FailureDiagnosis } from '../schemas/index.ts';
import { diagnoseFailure, type FailureDeps } from './failure.ts';
import type { Triager } from './ports.ts';
import { rulesEngine } from './rules-engine.ts';

export interface RunDeps extends FailureDeps {
  triager: Triager;
  /** Failures diagnosed at once (model calls are the scarce resource). */
  concurrency?: number;
  /**
   * Tokens for the whole run: once spent, the remaining failures go to the rules engine (and the
   * run's engine note says how many), so a report with hundreds of failures cannot run away.
   */
  runTokens?: number;
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
  let spent = 0;
  let overBudget = 0;
  const outcomes = await Promise.all(
    ctx.facts.issues.map((issue) =>
      limit(async () => {
        const over = deps.runTokens !== undefined && spent >= deps.runTokens;
        if (over) overBudget++;
        const engine = over ? rulesEngine : deps.engine;
        const outcome = await diagnoseFailure(issue, await deps.triager.triage(issue, ctx), ctx, {
          ...deps,
          engine,
        });
        spent += (outcome.diagnosis.usage?.input_tokens ?? 0) + (outcome.diagnosis.usage?.output_tokens ?? 0);
        return outcome;
      }),
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
      note: engineNote(deps.engine.name, fellBack, overBudget, failures.length),
    },
    created_at: (deps.now?.() ?? new Date()).toISOString(),
    failures,
  };
}

function engineNote(
  name: 'rules' | 'model',
  fellBack: number,
  overBudget: number,
  total: number,
): string | null {
  if (name === 'rules') return 'no model key configured';
  const notes = [
    ...(fellBack === 0 ? [] : [`the model failed on ${fellBack} of ${total} failures`]),
    ...(overBudget === 0 ? [] : [`the run's token budget ran out before ${overBudget} of ${total} failures`]),
  ];
  return notes.length === 0 ? null : `${notes.join('; ')}: the rules engine diagnosed those`;
}
