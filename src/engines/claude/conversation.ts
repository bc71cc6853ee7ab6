import { APIUserAbortError } from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { DiagnosisError } from '../../errors/index.ts';
import type { DiagnosisDraft, Usage } from '../../schemas/index.ts';
import { type Toolset, toolset } from '../../tools/index.ts';
import type { BudgetName, ClaudeBudget } from './budget.ts';
import type { MessagesClient } from './client.ts';
import { NOTICE } from './protocol.ts';
import { assistantContent, requestParams, toolUses } from './request.ts';
import { type RetryPolicy, withRetry } from './retry.ts';
import type { ClaudeSession } from './session.ts';
import { checkSubmission, SUBMIT_TOOL } from './submit.ts';
import { Transcript, type TranscriptStep } from './transcript.ts';
import { addReplyUsage, emptyUsage, tokensUsed } from './usage.ts';

export interface LoopDeps {
  client: MessagesClient;
  /** `max_tokens` of each request. */
  maxTokens: number;
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
}

/** How one round (a diagnosis, or a repair) ended. */
export interface ClaudeOutcome {
  /**
   * The submitted draft, exactly as the model gave it once it parsed. With `stopped: 'budget'`
   * it is the forced last submission after the tool budget ran out (or null): the runner turns
   * that into need_evidence, keeping what was learned.
   */
  draft: DiagnosisDraft | null;
  usage: Usage;
  stopped: 'submitted' | 'budget' | 'error';
  /** Which budget ran out, with `stopped: 'budget'`. */
  exhausted: BudgetName | null;
  /** With `stopped: 'error'`: MODEL_ERROR (the API failed after retries) or MODEL_REPLY_INVALID. */
  error: DiagnosisError | null;
  transcript: TranscriptStep[];
  /** The conversation, for repairDraft. */
  session: ClaudeSession;
}

/** One schema correction per round, one nudge to submit: then the model has had its chances. */
const MAX_CORRECTIONS = 1;
const MAX_NUDGES = 1;
const INPUT_CHARS = 120;

/**
 * Why the next request forces `submit_diagnosis`: `nudge` (it answered without a tool),
 * `last` (its final tool call was used), `budget` (it asked for a call past the budget).
 */
type Forced = 'nudge' | 'last' | 'budget' | null;

/** The state of one round, and how it ends. */
class Round {
  usage: Usage = emptyUsage();
  forced: Forced;
  corrections = 0;
  nudges = 0;
  turns = 0;
  readonly tools: Toolset;
  readonly log: Transcript;
  readonly started: number;
  readonly deadline: number;

  constructor(
    readonly session: ClaudeSession,
    readonly budget: ClaudeBudget,
    readonly deps: LoopDeps,
  ) {
    this.started = deps.now();
    this.deadline = this.started + budget.wallMs;
    this.log = new Transcript(deps.now, this.started);
    this.tools = toolset(session.ctx, { maxCalls: budget.toolCalls, ...session.tools });
    this.forced = budget.toolCalls === 0 ? 'last' : null;
  }

  spent(): BudgetName | null {
    if (this.deps.now() >= this.deadline) return 'wall_ms';
    if (tokensUsed(this.usage) >= this.budget.tokens) return 'tokens';
    return null;
  }

  end(
    stopped: ClaudeOutcome['stopped'],
    detail: { draft?: DiagnosisDraft; error?: DiagnosisError; exhausted?: BudgetName } = {},
  ): ClaudeOutcome {
    if (detail.exhausted !== undefined) this.log.add('budget', `${detail.exhausted} budget spent`);
    if (detail.error !== undefined) this.log.add('error', `${detail.error.code}: ${detail.error.message}`);
    return {
      draft: detail.draft ?? null,
      usage: {
        ...this.usage,
        tool_calls: this.tools.calls,
        latency_ms: Math.max(0, this.deps.now() - this.started),
      },
      stopped,
      exhausted: detail.exhausted ?? null,
      error: detail.error ?? null,
      transcript: this.log.steps,
      session: this.session,
    };
  }
}

/**
 * Runs the tool-use loop until the model submits a draft that parses, a budget runs out, or the
 * model or the API fails. Errors that are neither the model's nor the API's (a broken
 * repository under a tool, a bug) propagate.
 */
export async function converse(
  session: ClaudeSession,
  budget: ClaudeBudget,
  deps: LoopDeps,
): Promise<ClaudeOutcome> {
  const round = new Round(session, budget, deps);
  for (;;) {
    const spent = round.spent();
    if (spent !== null) return round.end('budget', { exhausted: spent });
    const reply = await ask(round);
    if (reply === 'wall') return round.end('budget', { exhausted: 'wall_ms' });
    if (reply instanceof DiagnosisError) return round.end('error', { error: reply });
    const outcome = await react(round, reply);
    if (outcome !== null) return outcome;
  }
}

/** One request, retried; 'wall' when the wall-time budget aborted it. */
async function ask(round: Round): Promise<Message | DiagnosisError | 'wall'> {
  const { deps } = round;
  const params = requestParams(round.session, round.tools.definitions, {
    maxTokens: deps.maxTokens,
    forceSubmit: round.forced !== null,
  });
  const turn = ++round.turns;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, round.deadline - deps.now()));
  try {
    return await withRetry(
      (attempt) => {
        round.log.add(
          'request',
          `turn ${turn} attempt ${attempt}${params.tool_choice?.type === 'tool' ? ' (submit forced)' : ''}`,
        );
        return deps.client.messages.create(params, { signal: controller.signal });
      },
      {
        policy: deps.retry,
        sleep: deps.sleep,
        random: deps.random,
        remainingMs: () => round.deadline - deps.now(),
        onRetry: ({ delayMs, reason }) => round.log.add('retry', `${reason}; retrying in ${delayMs} ms`),
      },
    );
  } catch (err: unknown) {
    if (err instanceof APIUserAbortError && controller.signal.aborted) return 'wall';
    if (err instanceof DiagnosisError && err.code === 'MODEL_ERROR') return err;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Takes in one reply; an outcome when the round is over, null to ask again. */
async function react(round: Round, reply: Message): Promise<ClaudeOutcome | null> {
  round.usage = addReplyUsage(round.usage, reply.usage);
  const content = assistantContent(reply);
  // An empty turn cannot go back into the history (the API rejects empty content).
  if (content.length > 0) round.session.messages.push({ role: 'assistant', content });
  const uses = toolUses(reply);
  round.log.add(
    'reply',
    `${reply.stop_reason ?? 'no stop reason'}: ${uses.map((u) => u.name).join(', ') || 'text only'}`,
  );
  if (reply.stop_reason === 'refusal')
    return round.end('error', { error: replyInvalid('the model refused to answer') });
  const submit = uses.find((use) => use.name === SUBMIT_TOOL);
  if (submit !== undefined) return onSubmit(round, submit, uses);
  if (uses.length > 0) return onToolCalls(round, uses);
  return onNoToolCall(round);
}

async function onSubmit(
  round: Round,
  submit: ToolUseBlock,
  uses: ToolUseBlock[],
): Promise<ClaudeOutcome | null> {
  const { session } = round;
  const byBudget = round.forced === 'budget';
  const checked = checkSubmission(submit.input, session.issueId);
  if (checked.ok) {
    const { verdict, category, place } = checked.draft;
    round.log.add('submit', `valid: ${verdict}, ${category}, ${place.level} ${place.file ?? ''}`.trim());
    session.pending = { submitId: submit.id, others: uses.filter((u) => u !== submit).map((u) => u.id) };
    if (byBudget) return round.end('budget', { draft: checked.draft, exhausted: 'tool_calls' });
    return round.end('submitted', { draft: checked.draft });
  }
  round.log.add('submit', `invalid: ${checked.problem.replace(/\s+/g, ' ')}`);
  if (byBudget) return round.end('budget', { exhausted: 'tool_calls' });
  if (round.corrections >= MAX_CORRECTIONS) {
    return round.end('error', {
      error: replyInvalid(`submission still invalid after a correction: ${checked.problem}`),
    });
  }
  round.corrections++;
  round.log.add('correction', 'asked for a corrected submission');
  const results = await runTools(round, uses, {
    id: submit.id,
    text: NOTICE.invalidSubmission(checked.problem),
  });
  session.messages.push({ role: 'user', content: results.blocks });
  return null;
}

async function onToolCalls(round: Round, uses: ToolUseBlock[]): Promise<ClaudeOutcome | null> {
  // Told to submit after the budget ran out and asked for more reading instead: the round is over.
  if (round.forced === 'budget') return round.end('budget', { exhausted: 'tool_calls' });
  const results = await runTools(round, uses);
  const content = [...results.blocks];
  if (results.refused) {
    round.forced = 'budget';
    content.push({ type: 'text', text: NOTICE.budgetSpent });
    round.log.add('budget', `tool-call budget of ${round.budget.toolCalls} spent; submission forced`);
  } else if (round.tools.exhausted && round.forced === null) {
    round.forced = 'last';
    content.push({ type: 'text', text: NOTICE.lastCall });
  }
  round.session.messages.push({ role: 'user', content });
  return null;
}

function onNoToolCall(round: Round): ClaudeOutcome | null {
  if (round.nudges >= MAX_NUDGES) {
    return round.end('error', { error: replyInvalid('the model stopped without calling submit_diagnosis') });
  }
  round.nudges++;
  round.forced ??= 'nudge';
  round.log.add('nudge', 'no tool call; asked to submit');
  round.session.messages.push({ role: 'user', content: NOTICE.nudge });
  return null;
}

/** Runs the turn's read-tool calls in order; a rejected submission gets `submitProblem` as its result. */
async function runTools(
  round: Round,
  uses: readonly ToolUseBlock[],
  submitProblem?: { id: string; text: string },
): Promise<{ blocks: ContentBlockParam[]; refused: boolean }> {
  const blocks: ContentBlockParam[] = [];
  let refused = false;
  for (const use of uses) {
    if (use.id === submitProblem?.id) {
      blocks.push({ type: 'tool_result', tool_use_id: use.id, content: submitProblem.text, is_error: true });
      continue;
    }
    const outcome = await round.tools.call(use.name, use.input);
    refused ||= outcome.refused;
    const status = outcome.refused ? 'refused' : outcome.is_error ? 'error' : 'ok';
    round.log.add(
      'tool',
      `${use.name} ${clip(JSON.stringify(use.input) ?? '')} → ${status}, ${outcome.content.length} chars`,
    );
    blocks.push({
      type: 'tool_result',
      tool_use_id: use.id,
      content: outcome.content,
      is_error: outcome.is_error,
    });
  }
  return { blocks, refused };
}

function replyInvalid(message: string): DiagnosisError {
  return new DiagnosisError('MODEL_REPLY_INVALID', message);
}

function clip(text: string): string {
  return text.length > INPUT_CHARS ? `${text.slice(0, INPUT_CHARS)}…` : text;
}
