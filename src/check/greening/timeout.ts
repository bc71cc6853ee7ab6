import type { Resolution } from '../citations.ts';
import type { CheckInput } from '../input.ts';

/** An environment signal about time: the triage saw the run time out against something outside the code. */
const TIMEOUT_SIGNAL = /time[sd]?[\s-]?out|deadline/i;

/**
 * A measured duration of the operation ("import took 42.1 s", "elapsed: 3200 ms", "duration
 * 12s"). A limit alone ("timed out after 5 s") is not a cause: it says the operation was
 * stopped, not that it needs longer.
 */
const MEASURED =
  /\b(?:took|elapsed|duration|lasted|ran\s+for|completed\s+in|finished\s+in|succeeded\s+in|needs?|required)\b[^\n]{0,40}?\d+(?:[.,]\d+)?\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i;

/**
 * The rule for raising a timeout, which otherwise only turns CI green: it is allowed when (a)
 * the triage carries an `environment` signal about a timeout, or (b) the draft cites — with a
 * citation that resolves — evidence or a fact showing how long the operation actually takes
 * (a measured duration, or a fact of type `duration`), so that the new value can be argued
 * from it. The issue being a timeout, or a log saying "timed out", is not enough.
 */
export function timeoutJustified(input: CheckInput, resolutions: readonly Resolution[]): string | null {
  const signal = input.triage.signals.find((s) => s.kind === 'environment' && TIMEOUT_SIGNAL.test(s.detail));
  if (signal !== undefined) return `the triage's environment signal: ${signal.detail}`;
  for (const r of resolutions) {
    if (!r.ok) continue;
    if (r.citation.kind === 'fact' && isDurationFact(input, r.citation.issue_id, r.citation.index))
      return `the duration fact cited at ${r.path}`;
    if (
      (r.citation.kind === 'evidence' || r.citation.kind === 'fact') &&
      r.text !== null &&
      MEASURED.test(r.text)
    )
      return `the measured duration cited at ${r.path}`;
  }
  return null;
}

function isDurationFact(input: CheckInput, issueId: string, index: number): boolean {
  const issue =
    issueId === input.issue.id ? input.issue : input.ctx.facts.issues.find((i) => i.id === issueId);
  return issue?.facts[index]?.type === 'duration';
}
