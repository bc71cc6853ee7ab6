import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { DiagnosisContext, RevisionCode } from '../../context/index.ts';
import type { ReadTool } from '../../tools/index.ts';

/** What the read tools may reach beyond the context (see ToolsetOptions). */
export interface ToolAccess {
  baseCode?: RevisionCode | null;
  extraEvidence?: readonly string[];
  /** A subset of the read tools (the `diff` ablation); all of them when absent. */
  tools?: readonly ReadTool[];
}

/** The tool_use ids of the turn that submitted, which the next user turn must answer. */
export interface PendingSubmission {
  submitId: string;
  others: string[];
}

/**
 * One failure's conversation, kept so the repair round continues it (same system prompt, same
 * history, so the cached prefix is reused). Belongs to one failure; rounds run one at a time.
 */
export interface ClaudeSession {
  readonly issueId: string;
  readonly ctx: DiagnosisContext;
  readonly system: string;
  readonly model: string;
  readonly tools: ToolAccess;
  readonly messages: MessageParam[];
  /** Set when the last round ended with a submission; repairDraft answers it. */
  pending: PendingSubmission | null;
}
