export { briefFor, type ModelInput, PLAIN_SYSTEM, toolsFor } from './ablation.ts';
export { firstMessage } from './brief.ts';
export { type BudgetName, ClaudeBudget } from './budget.ts';
export { type ClaudeClientOptions, createClaudeClient, type MessagesClient } from './client.ts';
export type { ClaudeOutcome } from './conversation.ts';
export {
  type ClaudeEngine,
  type ClaudeEngineDeps,
  createClaudeEngine,
  type DiagnoseRequest,
  type RepairRequest,
} from './engine.ts';
export { DEFAULT_RETRY, isTransient, type RetryPolicy, retryDelay, withRetry } from './retry.ts';
export type { ClaudeSession, PendingSubmission, ToolAccess } from './session.ts';
export { checkSubmission, SUBMIT_TOOL, type Submission, submitDefinition } from './submit.ts';
export { StepKind, Transcript, TranscriptStep } from './transcript.ts';
export { addReplyUsage, addUsage, emptyUsage, tokensUsed } from './usage.ts';
