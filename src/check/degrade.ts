import type {
  ChangeAdvice,
  CheckFinding,
  Claim,
  DiagnosisDraft,
  MissingEvidence,
  Verdict,
} from '../schemas/index.ts';
import { checkWith } from './check.ts';
import { addClaims, signalClaims, triageVerdict, withMissing, wouldDecide } from './fallback.ts';
import { clip, isError, isUnder } from './findings.ts';
import { NO_PLACE } from './grants.ts';
import type { CheckInput } from './input.ts';
import { lowerPlace } from './lower-place.ts';
import { checkPlace } from './place.ts';
import { type Sources, sourcesOf } from './sources.ts';
import { categoryFits, defaultCategory } from './verdict.ts';

/** Removing something can expose another error (a reverted verdict makes a code fix an environment's). */
const MAX_ROUNDS = 3;

/**
 * The deterministic fallback after the repair round: whatever the checker still rejects is
 * removed or lowered, never rewritten. Failed citations go, then claims left without any; the
 * place is lowered to what was granted; greening or environment-code fix plans go, with a
 * missing-evidence entry naming who must decide; an unsupported overturn reverts to the
 * triage's verdict; with no why-claim left the failure is the triage's (stated by its signals)
 * or `need_evidence` with what would decide it. The result passes `checkDraft` without errors.
 */
export async function degradeDraft(
  draft: DiagnosisDraft,
  findings: readonly CheckFinding[],
  input: CheckInput,
): Promise<{ draft: DiagnosisDraft; degraded: boolean }> {
  const sources = sourcesOf(input.ctx);
  let next = draft;
  let errors = findings.filter(isError);
  for (let round = 0; round < MAX_ROUNDS && errors.length > 0; round++) {
    next = await applyFindings(next, errors, input, sources);
    errors = (await checkWith(next, input, sources)).filter(isError);
  }
  if (errors.length > 0) next = await bareDraft(next, input, sources);
  return { draft: next, degraded: JSON.stringify(next) !== JSON.stringify(draft) };
}

async function applyFindings(
  draft: DiagnosisDraft,
  errors: readonly CheckFinding[],
  input: CheckInput,
  sources: Sources,
): Promise<DiagnosisDraft> {
  const failed = new Set(errors.map((f) => f.path));
  const missing: MissingEvidence[] = [];
  const plan = keptPlan(draft, errors, failed, missing);
  let { verdict, category } = draft;
  let why = keptClaims(draft.why, 'why', failed);
  if (failed.has('verdict')) {
    ({ verdict, category } = triageVerdict(input.triage));
    why = addClaims(signalClaims(input.triage), why);
  }
  if (failed.has('category') || !categoryFits(verdict, category))
    category =
      verdict === input.triage.verdict ? triageVerdict(input.triage).category : defaultCategory(verdict);
  const place = errors.some((f) => isUnder(f.path, 'place'))
    ? await lowerPlace(draft.place, sources, input.issue.candidates ?? [])
    : draft.place;
  const next: DiagnosisDraft = {
    ...draft,
    verdict,
    category,
    place,
    why,
    ...plan,
    verify: draft.verify.filter((_, i) => !failed.has(`verify.${i}`)),
    alternatives: keptClaims(draft.alternatives, 'alternatives', failed),
    missing_evidence: withMissing(draft.missing_evidence, missing),
  };
  return why.length === 0 ? undecided(next, input) : next;
}

/** Claims keep the citations that held; a claim with none left is dropped. */
function keptClaims(claims: readonly Claim[], at: string, failed: ReadonlySet<string>): Claim[] {
  return claims.flatMap((claim, i) => keptClaim(claim, `${at}.${i}`, failed) ?? []);
}

function keptClaim(claim: Claim, at: string, failed: ReadonlySet<string>): Claim | null {
  const cites = claim.cites.filter((_, j) => !failed.has(`${at}.cites.${j}`));
  return cites.length === 0 ? null : { ...claim, cites };
}

/** The fix plan without what failed; a plan that only greens CI or changes code for an environment goes whole. */
function keptPlan(
  draft: DiagnosisDraft,
  errors: readonly CheckFinding[],
  failed: ReadonlySet<string>,
  missing: MissingEvidence[],
): Pick<DiagnosisDraft, 'change' | 'fix'> {
  const rejected = errors.find(
    (f) =>
      (f.code === 'ci_greening_advice' || f.code === 'code_fix_for_environment') &&
      (isUnder(f.path, 'change') || isUnder(f.path, 'fix')),
  );
  if (rejected !== undefined) {
    missing.push(rejectedPlanNote(rejected, draft.verdict));
    return { change: null, fix: null };
  }
  const fix = errors.some((f) => isUnder(f.path, 'fix')) ? null : draft.fix;
  return { change: draft.change === null ? null : keptChange(draft.change, failed, missing), fix };
}

function keptChange(
  change: ChangeAdvice,
  failed: ReadonlySet<string>,
  missing: MissingEvidence[],
): ChangeAdvice | null {
  if (failed.has('change.file')) {
    missing.push({
      what: `where the change belongs: ${clip(change.file ?? '')} does not exist at the revision`,
      who: 'change_owner',
    });
    return null;
  }
  const advice = keptClaim(change.advice, 'change.advice', failed);
  if (advice === null) {
    missing.push({
      what: `support for the proposed change ("${clip(change.advice.text)}"): nothing it cited held`,
      who: 'change_owner',
    });
    return null;
  }
  const rationale =
    change.rationale === null ? null : keptClaim(change.rationale, 'change.rationale', failed);
  return { ...change, advice, rationale, function: failed.has('change.function') ? null : change.function };
}

function rejectedPlanNote(finding: CheckFinding, verdict: Verdict): MissingEvidence {
  if (finding.code === 'code_fix_for_environment') {
    return {
      what: 'what in the environment failed and how to restore it: the proposed code change was removed, an environment failure gets none',
      who: 'infra',
    };
  }
  return {
    what: `a fix of the cause, not of the symptom: the proposed change was removed (${clip(finding.message, 140)})`,
    who: verdict === 'flaky' ? 'test_owner' : 'change_owner',
  };
}

/** No why-claim held: the triage's verdict stated by its signals, or need_evidence with what would decide it. */
function undecided(draft: DiagnosisDraft, input: CheckInput): DiagnosisDraft {
  const claims = signalClaims(input.triage);
  if (input.triage.verdict !== 'need_evidence' && claims.length > 0)
    return { ...draft, ...triageVerdict(input.triage), why: claims };
  return {
    ...draft,
    ...UNDECIDED,
    why: [],
    change: null,
    fix: null,
    missing_evidence: withMissing(draft.missing_evidence, wouldDecide(input)),
  };
}

const UNDECIDED = { verdict: 'need_evidence', category: 'need_evidence' } as const;

/** The last resort when rounds of removal still leave errors: nothing but the triage and the place if it holds. */
async function bareDraft(
  draft: DiagnosisDraft,
  input: CheckInput,
  sources: Sources,
): Promise<DiagnosisDraft> {
  const placeHolds = !(await checkPlace(draft.place, sources, input.issue.candidates ?? [])).some(isError);
  const claims = signalClaims(input.triage).map((c) => ({ ...c, cites: c.cites.slice(0, 1) }));
  const decided = input.triage.verdict !== 'need_evidence' && claims.length > 0;
  return {
    ...draft,
    ...(decided ? triageVerdict(input.triage) : UNDECIDED),
    place: placeHolds ? draft.place : NO_PLACE,
    why: decided ? claims : [],
    change: null,
    fix: null,
    verify: [],
    alternatives: [],
    missing_evidence: withMissing(draft.missing_evidence, wouldDecide(input)),
  };
}
