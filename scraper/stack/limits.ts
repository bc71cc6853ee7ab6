/**
 * Bounds that keep parsing linear and the output small whatever a report contains: a trace is
 * untrusted text and some reports paste whole logs into it.
 */
export const MAX_FRAMES = 200;
/** Frames kept from the outer end of the throw order when a trace is cut, so the test frame survives deep recursion. */
export const OUTER_FRAMES_KEPT = 50;
/** Also bounds the frames parsed before the cut to MAX_FRAMES. */
export const MAX_LINES = 20_000;
/** Longer lines are never stack frames; skipping them keeps regexes cheap. */
export const MAX_LINE_LENGTH = 2_000;

/** Splits a trace into at most MAX_LINES lines, blanking lines too long to be frames. */
export function traceLines(trace: string): string[] {
  const lines = trace.split(/\r\n|\r|\n/, MAX_LINES);
  return lines.map((line) => (line.length > MAX_LINE_LENGTH ? '' : line));
}
