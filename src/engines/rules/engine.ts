import type { DiagnosisContext } from '../../context/index.ts';
import type { DiagnosisDraft, Issue, Triage } from '../../schemas/index.ts';
import type { FixPlan, LocationConfirmation, ReadingNotes, RootCauseChain } from '../../skill/index.ts';
import { buildChain } from './chain.ts';
import { confirmPlace } from './place.ts';
import { planFix } from './plan.ts';
import { readIssue } from './read.ts';

/** Each stage's output, kept for the report page and for tests of the stages. */
export interface RulesTrace {
  read: ReadingNotes;
  confirm_location: LocationConfirmation;
  root_cause: RootCauseChain;
  fix_plan: FixPlan;
}

/**
 * The built-in rules engine: the Skill's stages done by rules, used when no model key is
 * configured (and when the model fails). It starts from the deterministic triage and claims no
 * more than the signals, the locator and the diff support.
 */
export function diagnoseByRules(
  issue: Issue,
  triage: Triage,
  ctx: DiagnosisContext,
): { draft: DiagnosisDraft; trace: RulesTrace } {
  const read = readIssue(issue);
  const { confirmation, focus } = confirmPlace(issue, triage);
  const root = buildChain(read, focus, triage, ctx);
  const plan = planFix(issue, root, focus);
  const verdict = triage.verdict;
  const draft: DiagnosisDraft = {
    issue_id: issue.id,
    test: issue.test.full_name ?? issue.test.name,
    report_url: issue.url,
    verdict,
    category: verdict === 'need_evidence' ? 'need_evidence' : root.category,
    place: confirmation.place,
    why: root.chain,
    change: plan.change,
    fix: null,
    verify: plan.verify,
    missing_evidence: root.missing_evidence,
    alternatives: root.alternatives,
  };
  return { draft, trace: { read, confirm_location: confirmation, root_cause: root, fix_plan: plan } };
}
