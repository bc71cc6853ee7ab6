import type { TextRange } from '../schemas/index.ts';

/**
 * Text ranges as Gerrit counts them (1-based lines, 0-based characters, end exclusive): one place
 * for the fix encoder and the evidence checker to agree on what lies inside a file.
 */

/** A file's lines as Gerrit numbers them: a final newline ends the last line, it does not start another. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Null when the range lies inside the text; a line past the last is allowed only at character 0 (append). */
export function rangeProblem(range: TextRange, lines: readonly string[]): string | null {
  const { start_line, start_character, end_line, end_character } = range;
  if (before(end_line, end_character, start_line, start_character))
    return `range ${show(range)} ends before it starts`;
  for (const [line, character] of [
    [start_line, start_character],
    [end_line, end_character],
  ] as const) {
    const text = lines[line - 1];
    const endOfFile = line === lines.length + 1 && character === 0;
    if (text === undefined && !endOfFile)
      return `line ${line} is past the end of the file (${lines.length} lines)`;
    if (text !== undefined && character > text.length) {
      return `character ${character} is past the end of line ${line} (${text.length} characters)`;
    }
  }
  return null;
}

/** Whether position A comes strictly before position B. */
export function before(lineA: number, charA: number, lineB: number, charB: number): boolean {
  return lineA < lineB || (lineA === lineB && charA < charB);
}

/** `line:char-line:char`, as messages quote a range. */
export function show(r: TextRange): string {
  return `${r.start_line}:${r.start_character}-${r.end_line}:${r.end_character}`;
}

/** "line 4" or "lines 4-6", as claims and messages name a line range. */
export function showLines(r: { start: number; end: number }): string {
  return r.start === r.end ? `line ${r.start}` : `lines ${r.start}-${r.end}`;
}
