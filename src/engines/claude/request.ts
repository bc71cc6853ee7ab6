import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages';
import type { ToolDefinition } from '../../tools/index.ts';
import type { ClaudeSession } from './session.ts';
import { SUBMIT_TOOL, submitDefinition } from './submit.ts';

const SUBMIT = submitDefinition();
const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * One Messages API request of the conversation. Two cache breakpoints
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching): the system block, which
 * caches the tools and the Skill text (identical for every failure of every run), and the newest
 * user turn, so each turn of the tool loop reads the conversation so far from the cache.
 */
export function requestParams(
  session: ClaudeSession,
  tools: readonly ToolDefinition[],
  options: { maxTokens: number; forceSubmit: boolean },
): MessageCreateParamsNonStreaming {
  return {
    model: session.model,
    max_tokens: options.maxTokens,
    system: [{ type: 'text', text: session.system, cache_control: EPHEMERAL }],
    tools: [...tools, SUBMIT],
    tool_choice: options.forceSubmit ? { type: 'tool', name: SUBMIT_TOOL } : { type: 'auto' },
    messages: withTurnBreakpoint(session.messages),
  };
}

/** A copy of the history whose last block carries a cache breakpoint; the stored history has none. */
function withTurnBreakpoint(messages: readonly MessageParam[]): MessageParam[] {
  const copy = [...messages];
  const last = copy.at(-1);
  if (last === undefined) return copy;
  const blocks: ContentBlockParam[] =
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  const tail = blocks.at(-1);
  if (tail?.type === 'text' || tail?.type === 'tool_result') {
    blocks[blocks.length - 1] = { ...tail, cache_control: EPHEMERAL };
  }
  copy[copy.length - 1] =
    last.role === 'assistant' ? { role: 'assistant', content: blocks } : { role: 'user', content: blocks };
  return copy;
}

/** The reply as it goes back into the history: its text and tool calls (nothing else is requested). */
export function assistantContent(reply: Message): ContentBlockParam[] {
  const content: ContentBlockParam[] = [];
  for (const block of reply.content) {
    if (block.type === 'text' && block.text !== '') content.push({ type: 'text', text: block.text });
    if (block.type === 'tool_use')
      content.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
  }
  return content;
}

export function toolUses(reply: Message): ToolUseBlock[] {
  return reply.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
}
