import type { DiagnosisDraft } from '../../src/schemas/index.ts';
import {
  lastMessageText,
  type RecordedRequest,
  type Reply,
  reply,
  resultText,
} from '../helpers/messages-server.ts';

/** What the scripted model reads from the conversation, as a model would. */
export interface Reading {
  issueId: string;
  test: string;
  reportUrl: string;
  /** Index of the first `error` fact, and an evidence id the facts name. */
  errorFact: number;
  evidenceId: string | null;
  /** Changed target lines of the file read with get_file_diff. */
  changed: { start: number; end: number } | null;
  /** True when the last user message carries the checker's findings (the repair round). */
  repairing: boolean;
  /** The module of a delegated sub-diagnosis, null in the main conversation. */
  delegatedModule: string | null;
  /** The locator's candidates as the brief lists them. */
  candidates: Array<{
    level: string;
    file: string | null;
    function: string | null;
    lines: { start: number; end: number } | null;
  }>;
}

/** Writes the draft from what was read; called for the first submit and again in the repair round. */
export type Author = (reading: Reading) => DiagnosisDraft;

/**
 * A scripted model that works like the Skill asks: read the change's diff of `file`, then submit
 * what `author` writes from the facts, the diff and (in the repair round) the findings. It is a
 * function of the request, so concurrent conversations (one per failure) each get their own turns.
 */
export function scriptedModel(file: string | null, author: Author): (request: RecordedRequest) => Reply {
  return (request) => {
    const turns = request.body.messages.filter((m) => m.role === 'assistant').length;
    if (turns === 0)
      return reply.message([reply.toolUse('get_file_diff', { path: file ?? firstChangedFile(request) })]);
    return reply.message([reply.toolUse('submit_diagnosis', author(read(request)))]);
  };
}

function read(request: RecordedRequest): Reading {
  const first = request.body.messages[0];
  const brief = typeof first?.content === 'string' ? first.content : '';
  const issueId = /Diagnose failure (\S+) of this CI run/.exec(brief)?.[1] ?? '';
  const test = JSON.parse(/test ("(?:[^"\\]|\\.)*")/.exec(brief)?.[1] ?? '""') as string;
  const reportUrl = JSON.parse(/report_url ("(?:[^"\\]|\\.)*")/.exec(brief)?.[1] ?? '""') as string;
  const facts = JSON.parse(brief.split('\n\n')[4] ?? '{}') as {
    facts?: Array<{ type: string; index?: number; evidence?: string }>;
    candidates?: Reading['candidates'];
  };
  const list = facts.facts ?? [];
  const errorAt = list.findIndex((f) => f.type === 'error');
  const error = list[errorAt];
  return {
    issueId,
    test,
    reportUrl,
    errorFact: error?.index ?? Math.max(0, errorAt),
    evidenceId: list.find((f) => f.evidence !== undefined)?.evidence ?? null,
    changed: changedLines(request),
    repairing: /evidence checker found/i.test(lastMessageText(request)),
    delegatedModule: /Delegated sub-diagnosis: module (\S+)/.exec(brief)?.[1] ?? null,
    candidates: facts.candidates ?? [],
  };
}

/** The diff tool's first hunk with target lines, from the second message (the tool result). */
function changedLines(request: RecordedRequest): { start: number; end: number } | null {
  const second = request.body.messages[2];
  if (second === undefined || typeof second.content === 'string') return null;
  for (const block of second.content) {
    if (block.type !== 'tool_result' || block.is_error === true) continue;
    const parsed = JSON.parse(resultText(block)) as {
      hunks?: Array<{ lines: { start: number; end: number } | null }>;
    };
    const hunk = parsed.hunks?.find((h) => h.lines !== null);
    if (hunk?.lines) return hunk.lines;
  }
  return null;
}

/** The first file of the brief's "Files this change touches" list. */
function firstChangedFile(request: RecordedRequest): string {
  const first = request.body.messages[0];
  const brief = typeof first?.content === 'string' ? first.content : '';
  const list = brief
    .split('\n\n')
    .find((_part, i, all) => all[i - 1]?.startsWith('Files this change touches') ?? false);
  const files = JSON.parse(list ?? '[]') as Array<{ file: string }>;
  return files[0]?.file ?? '';
}
