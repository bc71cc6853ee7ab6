import { z } from 'zod';

/** What one failure's diagnosis (or one repair round) may spend. */
export const ClaudeBudget = z.object({
  /** Read-tool calls (submit_diagnosis is not counted). */
  toolCalls: z.number().int().nonnegative(),
  /** Tokens processed, see `tokensUsed`; checked after each reply, so one reply may overshoot. */
  tokens: z.number().int().positive(),
  /** Wall time from the first request, tools included; a request in flight is aborted at the end. */
  wallMs: z.number().int().positive(),
});
export type ClaudeBudget = z.infer<typeof ClaudeBudget>;

export type BudgetName = 'tool_calls' | 'tokens' | 'wall_ms';
