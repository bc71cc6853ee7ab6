import type { Language, Location } from '../../src/schemas/facts.ts';
import { detectLanguage } from './detect.ts';
import { go } from './go.ts';
import { java } from './java.ts';
import { javascript } from './javascript.ts';
import { traceLines } from './limits.ts';
import { normaliseReportPath } from './path.ts';
import { python } from './python.ts';
import { assignRoles, classifyFrames } from './roles.ts';
import type { Dialect, Frame, StackHints } from './types.ts';

export { detectLanguage } from './detect.ts';
export { normaliseReportPath } from './path.ts';
export type { StackHints } from './types.ts';

const DIALECTS: Record<Exclude<Language, 'unknown'>, Dialect> = { java, python, javascript, go };

/**
 * Frames of a stack trace as Locations, in printed order, with the test's own frame and the
 * failing project frame marked. Unknown or malformed text gives [].
 */
export function parseStackTrace(trace: string, hints?: StackHints): Location[] {
  try {
    return parseKnownTrace(trace, hints);
  } catch {
    // A trace is untrusted report text: a parser bug on odd input must cost this trace's
    // locations, never the whole scrape.
    return [];
  }
}

function parseKnownTrace(trace: string, hints: StackHints | undefined): Location[] {
  const language = detectLanguage(trace);
  if (language === 'unknown') return [];
  const dialect = DIALECTS[language];
  const parsed = dialect.parse(traceLines(trace));
  const frames: Frame[] = parsed.frames.map((f) => ({ ...f, file: normaliseReportPath(f.rawFile).file }));
  const traits = classifyFrames(frames, dialect, hints);
  const roles = assignRoles(parsed, traits);
  return frames.map((frame, i) => ({
    role: roles[i] ?? 'frame',
    file: frame.file,
    line: positiveOrNull(frame.line),
    column: positiveOrNull(frame.column),
    function: frame.function,
    snippet: frame.snippet,
    language,
    library: traits[i]?.library ?? false,
    ...(frame.file === frame.rawFile ? {} : { raw_file: frame.rawFile }),
    frame_index: i,
  }));
}

/** The schema wants positive numbers; a printed line 0 carries no position. */
function positiveOrNull(n: number | null): number | null {
  return n !== null && Number.isInteger(n) && n > 0 ? n : null;
}
