import type { Location } from '../../src/schemas/facts.ts';
import { parseTrace } from './parse.ts';
import type { StackHints } from './types.ts';

export { detectLanguage } from './detect.ts';
export { normaliseReportPath } from './path.ts';
export type { StackHints } from './types.ts';

/**
 * Frames of a stack trace as Locations, in printed order, with the test's own frame (`test`)
 * and the project frame closest to the raise (`failure`) marked. Unknown text gives [].
 */
export function parseStackTrace(
  trace: string,
  hints?: StackHints,
  onError: (err: unknown) => void = () => {},
): Location[] {
  try {
    return parseTrace(trace, hints);
  } catch (err: unknown) {
    // A trace is untrusted report text: a parser bug on odd input must cost this trace's
    // locations, never the whole scrape — and the caller hears why.
    onError(err);
    return [];
  }
}
