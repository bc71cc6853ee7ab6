import { z } from 'zod';
import type { DiagnosisContext } from '../context/index.ts';
import { LIMITS } from './limits.ts';
import { numberLines, shortSha, splitLines } from './text.ts';
import { defineTool, toolRefusal } from './tool.ts';

const Input = z.strictObject({
  path: z.string().min(1).describe('Repository-relative path at the revision, e.g. "src/order/create.py".'),
  start: z.number().int().positive().default(1).describe('First line, 1-based.'),
  end: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Last line, inclusive; at most ${LIMITS.maxLines} lines are returned per call.`),
});

const MAX_SUGGESTIONS = 5;

/** A line range of one file at the revision under diagnosis, read from git objects. */
export const readFile = defineTool({
  name: 'read_file',
  description:
    'Lines of one file at the revision under review, numbered "<line>\\t<text>"; at most ' +
    `${LIMITS.maxLines} lines per call. Cite as {kind:"code", file, lines:{start,end}}.`,
  input: Input,
  run: async (ctx, input) => {
    const lines = await readLinesAt(ctx, input.path);
    if (input.start > Math.max(lines.length, 1)) {
      throw toolRefusal(
        `${input.path} has ${lines.length} lines; line ${input.start} does not exist`,
        input.path,
      );
    }
    const wanted = Math.min(
      input.end ?? input.start + LIMITS.maxLines - 1,
      input.start + LIMITS.maxLines - 1,
    );
    if (wanted < input.start) throw toolRefusal(`line range ${input.start}-${wanted} is empty`, input.path);
    const shown = numberLines(lines, input.start, wanted);
    return {
      file: input.path,
      revision: ctx.revision,
      lines: { start: input.start, end: shown.end },
      total_lines: lines.length,
      text: shown.text,
      // Without an end the request was for the rest of the file.
      truncated: shown.end < Math.min(input.end ?? lines.length, lines.length),
      next_start: shown.end < lines.length ? shown.end + 1 : null,
    };
  },
});

/** The file's lines at the revision; a missing or binary file is refused with a hint. */
export async function readLinesAt(ctx: DiagnosisContext, path: string): Promise<string[]> {
  const text = await ctx.code.read(path);
  if (text === null) {
    const hint = await similarPaths(ctx, path);
    throw toolRefusal(
      `${path} does not exist at revision ${shortSha(ctx.revision)}` +
        (hint.length > 0 ? `; files with the same name: ${hint.join(', ')}` : ''),
      path,
    );
  }
  if (looksBinary(text)) throw toolRefusal(`${path} is a binary file`, path);
  return splitLines(text);
}

/** NUL in the first 8 KiB, git's own test for binary content. */
export function looksBinary(text: string): boolean {
  return text.slice(0, 8_000).includes('\u0000');
}

async function similarPaths(ctx: DiagnosisContext, path: string): Promise<string[]> {
  const name = path.split('/').at(-1) ?? path;
  const files = await ctx.code.list();
  return files.filter((file) => file === name || file.endsWith(`/${name}`)).slice(0, MAX_SUGGESTIONS);
}
