import { LIMITS } from './limits.ts';

/** Lines as the locator and the checker count them: `\r?\n` ends a line, a final newline adds none. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** A long line cut to `max` characters, marked so nobody mistakes the cut for the line's end. */
export function clipLine(line: string, max: number = LIMITS.maxLineChars): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [+${line.length - max} chars]`;
}

export interface NumberedLines {
  /** First and last line shown (1-based, inclusive); `end < start` when none fit. */
  start: number;
  end: number;
  /** One line per row, `<number>\t<text>`: the number is for citing, not part of the text. */
  text: string;
  /** True when lines up to the requested end were left out (line or character cap). */
  truncated: boolean;
}

/**
 * Lines `start..end` (1-based file line numbers), numbered, stopping at `maxLines` lines or
 * `maxChars` characters, whichever comes first. Long lines are clipped, not dropped. `lines[0]`
 * is line `firstLine` (1 unless `lines` is an excerpt of a larger file).
 */
export function numberLines(
  lines: readonly string[],
  start: number,
  end: number,
  caps: { maxLines?: number; maxChars?: number; prefix?: string; firstLine?: number } = {},
): NumberedLines {
  const maxLines = caps.maxLines ?? LIMITS.maxLines;
  const maxChars = caps.maxChars ?? LIMITS.maxTextChars;
  const first = caps.firstLine ?? 1;
  const last = Math.min(end, first + lines.length - 1);
  const rows: string[] = [];
  let chars = 0;
  let n = start;
  for (; n <= last && rows.length < maxLines; n++) {
    const row = `${caps.prefix ?? ''}${n}\t${clipLine(lines[n - first] ?? '')}`;
    if (chars + row.length + 1 > maxChars && rows.length > 0) break;
    rows.push(row);
    chars += row.length + 1;
  }
  return { start, end: n - 1, text: rows.join('\n'), truncated: n - 1 < last };
}

/** The leading items of `items` whose JSON fits in `maxChars`; `truncated` when some were left out. */
export function takeWithin<T>(items: readonly T[], maxChars: number): { kept: T[]; truncated: boolean } {
  const kept: T[] = [];
  let chars = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (chars + size > maxChars) return { kept, truncated: true };
    kept.push(item);
    chars += size;
  }
  return { kept, truncated: false };
}

/** Abbreviated sha for messages; ids in results stay full. */
export function shortSha(sha: string): string {
  return sha.slice(0, 12);
}
