import { type CaseOutcome, withCaseRun } from '../acceptance/run-case.ts';

export type { CaseOutcome } from '../acceptance/run-case.ts';

/**
 * Diagnoses a corpus case with the rules engine as change 42, patchset 3 (so Gerrit links have
 * numbers to check) and hands the still-open evidence store and code to `use`.
 */
export function withCase<T>(id: string, use: (outcome: CaseOutcome) => Promise<T>): Promise<T> {
  return withCaseRun(id, { target: { runId: `page-${id}`, change: 42, patchset: 3 } }, use);
}
