import type { TextRange } from '../schemas/index.ts';
import { rangeProblem } from '../util/text-range.ts';

/** Null when a replacement range lies inside the file's lines; else why not (shared with the fix encoder). */
export const textRangeProblem = rangeProblem;

/**
 * The whole lines a replacement touches, before and after it: what an edit removed and added
 * is judged on whole lines, because an assertion is a line.
 */
export function editedLines(
  lines: readonly string[],
  range: TextRange,
  replacement: string,
): { before: string[]; after: string[] } {
  const first = range.start_line - 1;
  const last = Math.min(range.end_line, lines.length) - 1;
  const before = lines.slice(first, last + 1);
  const head = (lines[first] ?? '').slice(0, range.start_character);
  const tail = range.end_line - 1 <= last ? (lines[range.end_line - 1] ?? '').slice(range.end_character) : '';
  return { before, after: `${head}${replacement}${tail}`.split(/\r?\n/) };
}
