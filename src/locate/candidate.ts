import type { CandidateBlock, FunctionSpan } from '../schemas/index.ts';

/** Lines either side of a precise line; the cap on a function shown whole. */
export const CONTEXT_LINES = 8;
export const MAX_BLOCK_LINES = 60;

/**
 * The bounded excerpt later stages read instead of the file: around the line (inside its
 * function when known), or the function from its start, capped.
 */
export function candidateBlock(
  file: string,
  lines: readonly string[],
  place: { line: number | null; fn: FunctionSpan | null },
): CandidateBlock | null {
  const bounds = place.fn?.lines ?? { start: 1, end: lines.length };
  let start: number;
  let end: number;
  if (place.line !== null) {
    start = Math.max(bounds.start, place.line - CONTEXT_LINES);
    end = Math.min(bounds.end, place.line + CONTEXT_LINES);
  } else if (place.fn !== null) {
    start = place.fn.lines.start;
    end = place.fn.lines.end;
  } else {
    return null;
  }
  const capped = Math.min(end, start + MAX_BLOCK_LINES - 1);
  return {
    file,
    lines: { start, end: capped },
    text: lines.slice(start - 1, capped).join('\n'),
    truncated: capped < end,
  };
}
