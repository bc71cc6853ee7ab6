import { z } from 'zod';
import type { DiagnosisContext, RevisionCode } from '../context/index.ts';
import { DiagnosisError, type ErrorCode } from '../errors/index.ts';
import { findSymbol } from './find-symbol.ts';
import { fileDiffTool } from './get-file-diff.ts';
import { getIssueFacts } from './get-issue-facts.ts';
import { LIMITS } from './limits.ts';
import { listChangeFiles } from './list-change-files.ts';
import { readEvidenceTool } from './read-evidence.ts';
import { readFile } from './read-file.ts';
import { searchCode } from './search-code.ts';
import type { ReadTool } from './tool.ts';

/** A tool as the Messages API lists it (structurally the SDK's `Tool`; this folder does not depend on the SDK). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** What one call produced: the tool_result text and whether it is an error the model should read. */
export interface ToolOutcome {
  content: string;
  is_error: boolean;
  /** Not run because the call budget was spent (and not counted). */
  refused: boolean;
}

export interface ToolsetOptions {
  /** Tool calls allowed for this failure; later calls get an error result telling the model to submit. */
  maxCalls: number;
  /** Code at the base revision, so get_file_diff can show removed lines. */
  baseCode?: RevisionCode | null;
  /** Evidence ids the model may read beyond those the facts reference. */
  extraEvidence?: Iterable<string>;
  /** Replaces the standard tools (tests of the dispatcher). */
  tools?: readonly ReadTool[];
}

export interface Toolset {
  readonly definitions: readonly ToolDefinition[];
  /** Validates and runs one call; never throws for the model's mistakes, only for real failures. */
  call(name: string, input: unknown): Promise<ToolOutcome>;
  /** Calls run so far, valid or not. */
  readonly calls: number;
  /** True once no further call will run. */
  readonly exhausted: boolean;
}

/**
 * Errors a tool raises because of what it was asked (unknown issue, missing file, bad range,
 * refused path, a file too large to read): the model reads them and can ask again. Any other
 * error is a real failure (git broken, store gone, parser unusable) and propagates.
 */
const MODEL_FACING: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'TOOL_INPUT_INVALID',
  'EVIDENCE_NOT_FOUND',
  'EVIDENCE_RANGE_INVALID',
  'PATH_REFUSED',
  'FILE_TOO_LARGE',
]);

/** The seven read-only tools of the Skill, over one run. */
export function readTools(options: Pick<ToolsetOptions, 'baseCode' | 'extraEvidence'> = {}): ReadTool[] {
  return [
    getIssueFacts,
    readEvidenceTool(options.extraEvidence),
    readFile,
    searchCode,
    findSymbol,
    fileDiffTool(options.baseCode ?? null),
    listChangeFiles,
  ];
}

/** The Messages API definition of a tool; its input schema is the zod schema the dispatcher checks. */
export function toolDefinition(tool: ReadTool): ToolDefinition {
  return { name: tool.name, description: tool.description, input_schema: inputSchema(tool.name, tool.input) };
}

/** JSON schema of an input as the model writes it (defaults optional), without the `$schema` tag. */
export function inputSchema(name: string, schema: z.ZodType): ToolDefinition['input_schema'] {
  const { $schema: _tag, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  if (json.type !== 'object') {
    throw new DiagnosisError('INVALID_ARGUMENT', `tool ${name}: input schema must describe an object`, {
      input: name,
    });
  }
  return { ...json, type: 'object' };
}

/** The tools of one failure's diagnosis, behind a dispatcher that validates, counts and bounds. */
export function toolset(ctx: DiagnosisContext, options: ToolsetOptions): Toolset {
  const tools = options.tools ?? readTools(options);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  let calls = 0;
  const dispatch = async (name: string, input: unknown): Promise<ToolOutcome> => {
    if (calls >= options.maxCalls) {
      return {
        content: `tool-call budget of ${options.maxCalls} calls is spent: call submit_diagnosis with what you have, listing what is missing`,
        is_error: true,
        refused: true,
      };
    }
    calls++;
    const tool = byName.get(name);
    if (tool === undefined) return failure(`unknown tool "${name}"; tools: ${[...byName.keys()].join(', ')}`);
    const parsed = tool.input.safeParse(input ?? {});
    if (!parsed.success) return failure(`invalid input for ${name}:\n${z.prettifyError(parsed.error)}`);
    return runTool(ctx, tool, parsed.data);
  };
  return {
    definitions: tools.map(toolDefinition),
    call: dispatch,
    get calls() {
      return calls;
    },
    get exhausted() {
      return calls >= options.maxCalls;
    },
  };
}

async function runTool(ctx: DiagnosisContext, tool: ReadTool, input: unknown): Promise<ToolOutcome> {
  let result: unknown;
  try {
    result = await tool.run(ctx, input);
  } catch (err: unknown) {
    if (err instanceof DiagnosisError && MODEL_FACING.has(err.code))
      return failure(`${tool.name}: ${err.message}`);
    throw err;
  }
  const content = JSON.stringify(result);
  if (content.length > LIMITS.maxResultChars) {
    // The tools bound themselves; this is the backstop that keeps a bug from flooding the conversation.
    return failure(
      `${tool.name}: result of ${content.length} characters exceeds ${LIMITS.maxResultChars}; ask for less`,
    );
  }
  return { content, is_error: false, refused: false };
}

function failure(message: string): ToolOutcome {
  return { content: message, is_error: true, refused: false };
}
