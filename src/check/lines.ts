import type { LineRange } from '../schemas/index.ts';

/**
 * A text's lines as Gerrit and the evidence store number them: a final newline ends the last
 * line rather than starting another, and `\r\n` counts as one break.
 */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Null when `range` lies within `count` lines; else why not, for a finding message. */
export function rangeOutside(range: LineRange, count: number): string | null {
  if (range.start > range.end) return `lines ${range.start}-${range.end} end before they start`;
  if (range.end > count) return `lines ${range.start}-${range.end} go past the last line (${count})`;
  return null;
}

export function overlaps(a: LineRange, b: LineRange): boolean {
  return a.start <= b.end && b.start <= a.end;
}

export function showRange(range: LineRange): string {
  return range.start === range.end ? `line ${range.start}` : `lines ${range.start}-${range.end}`;
}
