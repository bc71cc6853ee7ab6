import type { CheckFinding, DiagnosisDraft } from '../schemas/index.ts';
import { checkChange, checkFix } from './change.ts';
import { checkCitations } from './citations.ts';
import { checkEnvironmentFix } from './environment.ts';
import { checkGreening } from './greening/check.ts';
import type { CheckInput } from './input.ts';
import { checkPlace } from './place.ts';
import { type Sources, sourcesOf } from './sources.ts';
import { checkVerdict, standingVerdict } from './verdict.ts';

/**
 * The evidence checker: deterministic, run on every draft whoever wrote it. Findings point into
 * the draft by path (`why.1.cites.0`, `place`, `change.advice`, `fix.replacements.0`); errors
 * mark what is unsupported or forbidden, warnings what is harmless but worth saying.
 */
export async function checkDraft(draft: DiagnosisDraft, input: CheckInput): Promise<CheckFinding[]> {
  return checkWith(draft, input, sourcesOf(input.ctx));
}

/** The same check on sources already read (the degrade re-checks its result with them). */
export async function checkWith(
  draft: DiagnosisDraft,
  input: CheckInput,
  sources: Sources,
): Promise<CheckFinding[]> {
  const { findings: cited, resolutions } = await checkCitations(draft, sources, input);
  const verdict = checkVerdict(draft, input.triage, resolutions);
  return [
    ...cited,
    ...(await checkPlace(draft.place, sources, input.issue.candidates ?? [])),
    ...(await checkChange(draft, sources)),
    ...(await checkFix(draft, sources)),
    ...(await checkGreening(draft, sources, input, resolutions)),
    ...checkEnvironmentFix(draft, input.triage, standingVerdict(draft, input.triage, verdict)),
    ...verdict,
  ];
}
