import type { DiagnosisContext } from '../context/index.ts';
import { diagnoseByRules } from '../engines/rules/index.ts';
import type { Issue, Triage } from '../schemas/index.ts';
import { type Engine, type EngineResult, NO_USAGE } from './ports.ts';

/** The rules engine behind the Engine port: no tokens, no repair round (its drafts are deterministic). */
export const rulesEngine: Engine = {
  name: 'rules',
  model: null,
  diagnose: async (issue: Issue, triage: Triage, ctx: DiagnosisContext): Promise<EngineResult> => ({
    draft: diagnoseByRules(issue, triage, ctx).draft,
    usage: NO_USAGE,
    stopped: 'submitted',
  }),
};
