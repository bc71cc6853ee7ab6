import { isDiagnosisError } from '../errors/index.ts';
import { DiagnosisRun } from '../schemas/index.ts';
import type { Job, Run, RunStore, StageCompletion } from '../store/runs/index.ts';

type StageRunner = (job: Job, run: Run) => Promise<StageCompletion>;

/** Counters the process keeps (they restart at zero with it, as Prometheus counters may). */
export class Counters {
  tokens = { input: 0, output: 0 };
  errors = { gerrit: 0, model: 0 };
  rejected = 0;
}

/**
 * Prometheus text exposition (version 0.0.4): runs by state and stage durations from the store
 * (so they survive restarts and agree across workers), tokens and errors from this process.
 */
export async function renderMetrics(runs: RunStore, counters: Counters): Promise<string> {
  const lines: string[] = [];
  const family = (name: string, type: string, help: string) =>
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  family('ci_diagnosis_runs', 'gauge', 'Runs by state.');
  for (const [state, count] of Object.entries(await runs.countsByState()))
    lines.push(`ci_diagnosis_runs{state="${state}"} ${count}`);
  family('ci_diagnosis_stage_duration_seconds', 'histogram', 'Wall time of completed stages.');
  for (const d of await runs.stageDurations()) {
    for (const b of d.buckets) {
      const le = Number.isFinite(b.le) ? String(b.le / 1000) : '+Inf';
      lines.push(`ci_diagnosis_stage_duration_seconds_bucket{stage="${d.stage}",le="${le}"} ${b.count}`);
    }
    lines.push(`ci_diagnosis_stage_duration_seconds_sum{stage="${d.stage}"} ${d.sum_ms / 1000}`);
    lines.push(`ci_diagnosis_stage_duration_seconds_count{stage="${d.stage}"} ${d.count}`);
  }
  family('ci_diagnosis_model_tokens_total', 'counter', 'Model tokens used by diagnoses in this process.');
  lines.push(`ci_diagnosis_model_tokens_total{direction="input"} ${counters.tokens.input}`);
  lines.push(`ci_diagnosis_model_tokens_total{direction="output"} ${counters.tokens.output}`);
  family(
    'ci_diagnosis_errors_total',
    'counter',
    'Failed Gerrit and model calls seen by stages in this process.',
  );
  lines.push(`ci_diagnosis_errors_total{kind="gerrit"} ${counters.errors.gerrit}`);
  lines.push(`ci_diagnosis_errors_total{kind="model"} ${counters.errors.model}`);
  family('ci_diagnosis_rejected_requests_total', 'counter', 'Runs refused because the queue was full.');
  lines.push(`ci_diagnosis_rejected_requests_total ${counters.rejected}`);
  return `${lines.join('\n')}\n`;
}

/** The stage runner, counting the tokens of each diagnosis and the Gerrit and model errors stages meet. */
export function countingStages(runStage: StageRunner, counters: Counters): StageRunner {
  return async (job, run) => {
    try {
      const done = await runStage(job, run);
      const diagnosis = job.stage === 'diagnose' ? DiagnosisRun.safeParse(done.output) : null;
      for (const f of diagnosis?.success ? diagnosis.data.failures : []) {
        counters.tokens.input += f.usage?.input_tokens ?? 0;
        counters.tokens.output += f.usage?.output_tokens ?? 0;
      }
      return done;
    } catch (err: unknown) {
      if (isDiagnosisError(err) && err.code.startsWith('GERRIT_')) counters.errors.gerrit++;
      if (isDiagnosisError(err) && err.code.startsWith('MODEL_')) counters.errors.model++;
      throw err;
    }
  };
}
