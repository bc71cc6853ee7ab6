import { setTimeout as delay } from 'node:timers/promises';
import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';
import type { DiagnosisContext } from '../../context/index.ts';
import { DiagnosisError } from '../../errors/index.ts';
import type { Triage } from '../../schemas/index.ts';
import { briefFor, type ModelInput } from './ablation.ts';
import { ClaudeBudget } from './budget.ts';
import type { MessagesClient } from './client.ts';
import { type ClaudeOutcome, converse, type LoopDeps } from './conversation.ts';
import { NOTICE } from './protocol.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import type { ClaudeSession, PendingSubmission, ToolAccess } from './session.ts';

export interface ClaudeEngineDeps {
  /** The SDK client (createClaudeClient), or anything with its `messages.create`. */
  client: MessagesClient;
  /** `max_tokens` per reply (default 4096: a full DiagnosisDraft fits easily). */
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export interface DiagnoseRequest {
  issueId: string;
  ctx: DiagnosisContext;
  /** The deterministic verdict the diagnosis starts from. */
  triage: Triage;
  /** The Skill: its static text is the (cached) system prompt. */
  skill: { system: string };
  budget: ClaudeBudget;
  model: string;
  /** Base code for removed diff lines, extra readable evidence. */
  tools?: ToolAccess;
  /** A delegated sub-diagnosis: the part of the causal chain to examine (appended to the brief). */
  focus?: string;
  /** What the brief holds (ablation.ts); default `skill`. */
  input?: ModelInput;
}

export interface RepairRequest {
  /** The session of the round whose submission the checker rejected. */
  session: ClaudeSession;
  /** The checker's findings, as text for the model. */
  findings: string;
  /** The repair round's own budget (its usage is reported separately; see addUsage). */
  budget: ClaudeBudget;
}

export interface ClaudeEngine {
  diagnoseFailure(request: DiagnoseRequest): Promise<ClaudeOutcome>;
  repairDraft(request: RepairRequest): Promise<ClaudeOutcome>;
}

const DEFAULT_MAX_TOKENS = 4_096;
/** Findings beyond this are cut: the checker's list is for the model to act on, not to be read in full. */
const MAX_FINDINGS_CHARS = 8_000;

/**
 * The Claude engine: one conversation per failure through the Messages API, reading the run
 * through the read-only tools and ending in `submit_diagnosis`. See README.md for the loop,
 * budgets and retries.
 */
export function createClaudeEngine(deps: ClaudeEngineDeps): ClaudeEngine {
  const loop: LoopDeps = {
    client: deps.client,
    maxTokens: deps.maxTokens ?? DEFAULT_MAX_TOKENS,
    retry: { ...DEFAULT_RETRY, ...deps.retry },
    sleep: deps.sleep ?? ((ms) => delay(ms)),
    now: deps.now ?? (() => performance.now()),
    random: deps.random ?? Math.random,
  };
  return {
    diagnoseFailure: async (request) => converse(openSession(request), checkBudget(request.budget), loop),
    repairDraft: async (request) => {
      const budget = checkBudget(request.budget);
      const { session } = request;
      if (session.pending === null) {
        throw new DiagnosisError(
          'INVALID_ARGUMENT',
          `the conversation of issue ${session.issueId} did not end with a submission: nothing to repair`,
          { input: session.issueId },
        );
      }
      session.messages.push({ role: 'user', content: repairTurn(session.pending, request.findings) });
      session.pending = null;
      return converse(session, budget, loop);
    },
  };
}

function openSession(request: DiagnoseRequest): ClaudeSession {
  const issue = request.ctx.facts.issues.find((candidate) => candidate.id === request.issueId);
  if (issue === undefined) {
    throw new DiagnosisError('INVALID_ARGUMENT', `issue ${request.issueId} is not in the run's facts`, {
      input: request.issueId,
    });
  }
  if (request.skill.system.trim() === '') {
    throw new DiagnosisError('SKILL_INVALID', 'the Skill system text is empty');
  }
  return {
    issueId: issue.id,
    ctx: request.ctx,
    system: request.skill.system,
    model: request.model,
    tools: request.tools ?? {},
    messages: [
      {
        role: 'user',
        content: [briefFor(request.input ?? 'skill', issue, request.triage, request.ctx), request.focus]
          .filter((part) => part !== undefined)
          .join('\n\n'),
      },
    ],
    pending: null,
  };
}

/** The answer to the rejected submission (its tool_result carries the findings) and to any calls made beside it. */
function repairTurn(pending: PendingSubmission, findings: string): ContentBlockParam[] {
  const text = findings.length > MAX_FINDINGS_CHARS ? `${findings.slice(0, MAX_FINDINGS_CHARS)}…` : findings;
  return [
    { type: 'tool_result', tool_use_id: pending.submitId, content: NOTICE.repair(text), is_error: true },
    ...pending.others.map(
      (id): ContentBlockParam => ({
        type: 'tool_result',
        tool_use_id: id,
        content: NOTICE.notRun,
        is_error: true,
      }),
    ),
  ];
}

function checkBudget(budget: ClaudeBudget): ClaudeBudget {
  const parsed = ClaudeBudget.safeParse(budget);
  if (!parsed.success) {
    throw new DiagnosisError('INVALID_ARGUMENT', `invalid Claude budget: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
