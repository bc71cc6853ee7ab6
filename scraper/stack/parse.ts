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

const DIALECTS: Record<Exclude<Language, 'unknown'>, Dialect> = { java, python, javascript, go };

/** Detect, parse, normalise, classify. Unguarded: `parseStackTrace` is the safe entry point. */
export function parseTrace(trace: string, hints: StackHints | undefined): Location[] {
  const language = detectLanguage(trace);
  if (language === 'unknown') return [];
  const dialect = DIALECTS[language];
  const parsed = dialect.parse(traceLines(trace), hints);
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
    frame_index: frame.printedIndex,
  }));
}

/** The schema wants positive numbers; a printed line 0 carries no position. */
function positiveOrNull(n: number | null): number | null {
  return n !== null && Number.isInteger(n) && n > 0 ? n : null;
}
