import type { Logger } from 'pino';
import type { DiagnosisContext } from '../context/index.ts';
import { diagnoseByRules } from '../engines/rules/index.ts';
import { isDiagnosisError } from '../errors/index.ts';
import type {
  CheckFinding,
  DiagnosisDraft,
  FailureDiagnosis,
  Issue,
  Triage,
  Usage,
} from '../schemas/index.ts';
import type { ModuleMap } from '../skill/index.ts';
import { delegateAcrossModules } from './delegate.ts';
import {
  addUsage,
  type Checker,
  type CheckInput,
  type Engine,
  type EngineResult,
  NO_USAGE,
} from './ports.ts';

export interface FailureDeps {
  engine: Engine;
  checker: Checker;
  /** Where module borders are; without it no failure is delegated. */
  modules?: ModuleMap;
  /**
   * False only for the evaluation's ablations without the gate: the checker still judges the
   * draft (so unsupported claims are counted) but neither repair nor degrade acts on it.
   */
  gate?: boolean;
  log: Pick<Logger, 'warn' | 'info'>;
}

/** How one failure was diagnosed: the diagnosis and whether the engine had to fall back to rules. */
export interface FailureOutcome {
  diagnosis: FailureDiagnosis;
  fellBack: string | null;
}

/**
 * One failure through engine → checker → one repair round → degrade. The engine's draft never
 * reaches the output unchecked; whatever the checker still rejects after the repair is removed
 * or lowered by the deterministic degrade, and the findings stay with the diagnosis.
 */
export async function diagnoseFailure(
  issue: Issue,
  triage: Triage,
  ctx: DiagnosisContext,
  deps: FailureDeps,
): Promise<FailureOutcome> {
  const input = { ctx, issue, triage };
  const first = await firstDraft(input, deps);
  let { draft, usage } = first;
  let findings = await deps.checker.check(draft, input);
  let rounds = 0;
  const gate = deps.gate ?? true;
  if (gate && errors(findings).length > 0 && deps.engine.repair !== undefined && first.canRepair) {
    rounds = 1;
    const repaired = await repairOnce(deps, issue, draft, findings);
    usage = addUsage(usage, repaired.usage);
    if (repaired.draft !== null) {
      draft = repaired.draft;
      findings = await deps.checker.check(draft, input);
    }
  }
  const all = [...first.notes, ...findings];
  let degraded = false;
  if (gate && errors(findings).length > 0)
    ({ draft, degraded } = await deps.checker.degrade(draft, findings, input));
  return {
    diagnosis: { ...draft, triage, usage, check: { findings: all, repair_rounds: rounds, degraded } },
    fellBack: first.fellBack,
  };
}

interface FirstDraft {
  draft: DiagnosisDraft;
  usage: Usage;
  fellBack: string | null;
  /** Only a model's own submitted draft gets a repair round. */
  canRepair: boolean;
  notes: CheckFinding[];
}

/** The engine's draft (or the rules' after a model failure, or need_evidence after a budget), with delegation. */
async function firstDraft(input: CheckInput, deps: FailureDeps): Promise<FirstDraft> {
  const { issue, triage, ctx } = input;
  const first = await propose(issue, triage, ctx, deps);
  const outOfBudget = first.result.stopped === 'budget' || first.result.draft === null;
  if (outOfBudget) {
    return {
      draft: budgetDraft(issue, triage, ctx, first.result),
      usage: first.result.usage,
      fellBack: first.fellBack,
      canRepair: false,
      notes: [budgetFinding(first.result)],
    };
  }
  let draft = first.result.draft as DiagnosisDraft;
  let usage = first.result.usage;
  if (first.fellBack === null && deps.modules !== undefined) {
    const delegated = await delegateAcrossModules(draft, input, {
      engine: deps.engine,
      modules: deps.modules,
      log: deps.log,
    });
    draft = delegated.draft;
    if (delegated.usage !== null) usage = addUsage(usage, delegated.usage);
  }
  return { draft, usage, fellBack: first.fellBack, canRepair: first.fellBack === null, notes: [] };
}

async function propose(
  issue: Issue,
  triage: Triage,
  ctx: DiagnosisContext,
  deps: FailureDeps,
): Promise<{ result: EngineResult; fellBack: string | null }> {
  try {
    return { result: await deps.engine.diagnose(issue, triage, ctx), fellBack: null };
  } catch (err: unknown) {
    if (
      !isDiagnosisError(err) ||
      deps.engine.name === 'rules' ||
      !['MODEL_ERROR', 'MODEL_REPLY_INVALID'].includes(err.code)
    )
      throw err;
    deps.log.warn(
      { issue: issue.id, code: err.code, err: err.message },
      'model failed; the rules engine diagnoses this failure',
    );
    const { draft } = diagnoseByRules(issue, triage, ctx);
    return {
      result: { draft, usage: NO_USAGE, stopped: 'submitted' },
      fellBack: `${err.code}: ${err.message}`,
    };
  }
}

async function repairOnce(
  deps: FailureDeps,
  issue: Issue,
  draft: DiagnosisDraft,
  findings: CheckFinding[],
): Promise<EngineResult> {
  const repair = deps.engine.repair;
  if (repair === undefined) return { draft: null, usage: NO_USAGE, stopped: 'submitted' };
  try {
    return await repair.call(deps.engine, issue, draft, deps.checker.describe(findings));
  } catch (err: unknown) {
    if (!isDiagnosisError(err) || !['MODEL_ERROR', 'MODEL_REPLY_INVALID'].includes(err.code)) throw err;
    deps.log.warn({ issue: issue.id, err: err.message }, 'repair round failed; degrading the first draft');
    return { draft: null, usage: NO_USAGE, stopped: 'submitted' };
  }
}

/** A failure whose budget ran out ends as need_evidence with what the rules could establish. */
function budgetDraft(
  issue: Issue,
  triage: Triage,
  ctx: DiagnosisContext,
  result: EngineResult,
): DiagnosisDraft {
  const { draft } = diagnoseByRules(issue, triage, ctx);
  return {
    ...draft,
    verdict: 'need_evidence',
    category: 'need_evidence',
    change: null,
    missing_evidence: [
      ...draft.missing_evidence,
      {
        what: `a decision the model could not reach within its budget (${result.usage.tool_calls} tool calls)`,
        who: 'change_owner',
      },
    ],
  };
}

function budgetFinding(result: EngineResult): CheckFinding {
  return {
    code: 'budget_exhausted',
    severity: 'warning',
    path: '',
    message: `the engine stopped at its budget after ${result.usage.tool_calls} tool calls; the rules engine's findings are shown`,
  };
}

function errors(findings: readonly CheckFinding[]): CheckFinding[] {
  return findings.filter((f) => f.severity === 'error');
}
