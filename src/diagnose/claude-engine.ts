import type { DiagnosisContext } from '../context/index.ts';
import {
  type ClaudeBudget,
  type ClaudeEngine,
  type ClaudeOutcome,
  type ClaudeSession,
  type ModelInput,
  toolsFor,
} from '../engines/claude/index.ts';
import type { DiagnosisDraft, Issue, Triage } from '../schemas/index.ts';
import type { Engine, EngineResult, ModuleShare } from './ports.ts';

export interface ClaudeEngineOptions {
  engine: ClaudeEngine;
  model: string;
  /** The Skill's static text (loadSkill().system). */
  system: string;
  budget: ClaudeBudget;
  /** The repair round's own budget (smaller: it answers findings, it does not start over). */
  repairBudget: ClaudeBudget;
  /** What the model is given (an ablation of the evaluation); default `skill`, the product. */
  input?: ModelInput;
}

/**
 * The Claude engine behind the Engine port. Model and API failures come back from the engine as
 * `stopped: 'error'`; they are thrown here as the DiagnosisError they carry, which the runner
 * turns into a fallback to the rules engine. A repair continues the failure's own conversation.
 */
export function claudeEngine(options: ClaudeEngineOptions): Engine {
  const sessions = new Map<string, ClaudeSession>();
  const settle = (issue: Issue, outcome: ClaudeOutcome): EngineResult => {
    if (outcome.stopped === 'error')
      throw outcome.error ?? new Error(`model stopped without a reason on ${issue.id}`);
    sessions.set(issue.id, outcome.session);
    return { draft: outcome.draft, usage: outcome.usage, stopped: outcome.stopped };
  };
  const ask = (
    issue: Issue,
    triage: Triage,
    ctx: DiagnosisContext,
    extra: { budget: ClaudeBudget; focus?: string },
  ) => {
    const input = options.input ?? 'skill';
    const tools = toolsFor(input, { baseCode: ctx.baseCode });
    return options.engine.diagnoseFailure({
      issueId: issue.id,
      ctx,
      triage,
      skill: { system: options.system },
      model: options.model,
      tools: { baseCode: ctx.baseCode, ...(tools === undefined ? {} : { tools }) },
      input,
      ...extra,
    });
  };
  return {
    name: 'model',
    model: options.model,
    diagnose: async (issue, triage, ctx) =>
      settle(issue, await ask(issue, triage, ctx, { budget: options.budget })),
    // A sub-diagnosis is a conversation of its own: its session must not replace the failure's, which a repair continues.
    delegate: async (issue, triage, ctx, module: ModuleShare) => {
      const outcome = await ask(issue, triage, ctx, {
        budget: options.repairBudget,
        focus: delegationBrief(module),
      });
      if (outcome.stopped === 'error')
        throw outcome.error ?? new Error(`sub-diagnosis of ${module.name} stopped`);
      return { draft: outcome.draft, usage: outcome.usage, stopped: outcome.stopped };
    },
    repair: async (issue: Issue, _draft: DiagnosisDraft, findings: string) => {
      const session = sessions.get(issue.id);
      if (session === undefined) throw new Error(`no conversation to repair for failure ${issue.id}`);
      return settle(
        issue,
        await options.engine.repairDraft({ session, findings, budget: options.repairBudget }),
      );
    },
  };
}

/** The delegated conversation's extra instruction (stage `delegate` of the Skill). */
export function delegationBrief(module: ModuleShare): string {
  return [
    `Delegated sub-diagnosis: module ${module.name} (${module.files.join(', ')}).`,
    "Examine only this module's part of the causal chain: what it receives, what it does, what it hands on.",
    'Submit a diagnosis whose why-claims cite code and diff in these files; the checker merges it with the others.',
  ].join('\n');
}
