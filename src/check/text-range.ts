import type { TextRange } from '../schemas/index.ts';

/**
 * Null when a replacement range lies inside the file's lines (Gerrit's convention: 1-based
 * lines, 0-based characters, end exclusive; one line past the end only at character 0, to
 * append); else why not.
 */
export function textRangeProblem(range: TextRange, lines: readonly string[]): string | null {
  const { start_line, start_character, end_line, end_character } = range;
  if (end_line < start_line || (end_line === start_line && end_character < start_character))
    return `range ${show(range)} ends before it starts`;
  for (const [line, character] of [
    [start_line, start_character],
    [end_line, end_character],
  ] as const) {
    const text = lines[line - 1];
    if (text === undefined && !(line === lines.length + 1 && character === 0))
      return `line ${line} is past the end of the file (${lines.length} lines)`;
    if (text !== undefined && character > text.length)
      return `character ${character} is past the end of line ${line} (${text.length} characters)`;
  }
  return null;
}

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

function show(range: TextRange): string {
  return `${range.start_line}:${range.start_character}-${range.end_line}:${range.end_character}`;
}
