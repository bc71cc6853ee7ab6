import type { Usage as ApiUsage } from '@anthropic-ai/sdk/resources/messages';
import type { Usage } from '../../schemas/index.ts';

/** The token fields of one API reply; the cache fields are null (or absent) when caching did not apply. */
export type ReplyUsage = Pick<ApiUsage, 'input_tokens' | 'output_tokens'> &
  Partial<Pick<ApiUsage, 'cache_read_input_tokens' | 'cache_creation_input_tokens'>>;

export function emptyUsage(): Usage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    tool_calls: 0,
    latency_ms: 0,
  };
}

/** `usage` plus the tokens of one API reply. */
export function addReplyUsage(usage: Usage, reply: ReplyUsage): Usage {
  return {
    ...usage,
    input_tokens: usage.input_tokens + reply.input_tokens,
    output_tokens: usage.output_tokens + reply.output_tokens,
    cache_read_input_tokens: usage.cache_read_input_tokens + (reply.cache_read_input_tokens ?? 0),
    cache_creation_input_tokens: usage.cache_creation_input_tokens + (reply.cache_creation_input_tokens ?? 0),
  };
}

/** Two rounds of one failure (diagnosis, then repair) as one usage. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
    tool_calls: a.tool_calls + b.tool_calls,
    latency_ms: a.latency_ms + b.latency_ms,
  };
}

/**
 * Tokens the token budget counts: everything the conversation processed — fresh, cache-written
 * and cache-read input, and output. Cache reads are cheap but still fill the context window.
 */
export function tokensUsed(usage: Usage): number {
  return (
    usage.input_tokens +
    usage.output_tokens +
    usage.cache_read_input_tokens +
    usage.cache_creation_input_tokens
  );
}
