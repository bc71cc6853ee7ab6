import type { z } from 'zod';
import type { DiagnosisContext } from '../context/index.ts';
import { DiagnosisError } from '../errors/index.ts';

/** Plain JSON data: what a tool returns and the dispatcher serialises into a tool_result. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * One read-only tool the model may call. `input` is the zod schema the dispatcher validates
 * the model's input with (and publishes as JSON schema); `run` returns bounded JSON that
 * carries ids the checker can verify (evidence ids with line ranges, files with line ranges at
 * the revision, issue ids with fact indexes).
 */
export interface ReadTool<Input extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly input: Input;
  run(ctx: DiagnosisContext, input: z.output<Input>): Promise<JsonObject>;
}

/** Keeps the input type of `run` tied to the schema at the definition site. */
export function defineTool<Input extends z.ZodType>(tool: ReadTool<Input>): ReadTool<Input> {
  return tool;
}

/**
 * A request the tool cannot answer because of what the model asked (an unknown issue, a file
 * that is not at the revision): the dispatcher returns it to the model as an error result.
 */
export function toolRefusal(message: string, input?: string): DiagnosisError {
  return new DiagnosisError('TOOL_INPUT_INVALID', message, input === undefined ? {} : { input });
}
