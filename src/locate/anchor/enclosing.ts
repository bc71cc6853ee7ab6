import type { FunctionSpan } from '../../schemas/index.ts';

/**
 * The innermost span containing `line` (1-based), or null at top level. Definitions nest, so
 * the innermost is the one that starts last; among spans starting on the same line (a one-line
 * callback inside a one-line method), the shorter.
 */
export function enclosing<T extends FunctionSpan>(spans: readonly T[], line: number): T | null {
  let best: T | null = null;
  for (const span of spans) {
    if (line < span.lines.start || line > span.lines.end) continue;
    if (best === null || isInside(span, best)) best = span;
  }
  return best;
}

function isInside(span: FunctionSpan, other: FunctionSpan): boolean {
  if (span.lines.start !== other.lines.start) return span.lines.start > other.lines.start;
  return span.lines.end <= other.lines.end;
}
