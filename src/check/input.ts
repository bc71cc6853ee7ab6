import type { DiagnosisContext } from '../context/index.ts';
import type { Issue, Triage } from '../schemas/index.ts';

/** What the checker reads besides the draft: the run's context, the failure and its deterministic verdict. */
export interface CheckInput {
  ctx: DiagnosisContext;
  issue: Issue;
  triage: Triage;
}
