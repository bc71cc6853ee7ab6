import { TraceBuilder } from './trace-builder.ts';
import type { Dialect, Frame, ParsedTrace } from './types.ts';

/** Path fragments of the interpreter's stdlib, installed packages and pytest's own machinery. */
export const PYTHON_LIBRARY_PATTERNS: readonly RegExp[] = [
  /(?:^|\/)(?:site|dist)-packages\//,
  /(?:^|\/)lib(?:64)?\/python\d[\d.]*\//,
  /(?:^|\/)Python\d*\/Lib\//i,
  /(?:^|\/)_pytest\//,
  /(?:^|\/)pluggy\//,
  /^<[^>]*>$/,
];

/** Standard traceback frame: `  File "path", line 42, in func`. */
const FILE_LINE = /^(\s*)File "([^"]+)", line (\d+)(?:, in (.+))?$/;
/** pytest location line: `path/to/file.py:42: in func` (short) or `path/to/file.py:42: Error` (long). */
const PYTEST_LOCATION = /^(<[^>]+>|(?:[A-Za-z]:)?[^\s:][^:]*\.py):(\d+):(?: in (\S+)$)?/;
const SECTION_BREAK =
  /^(?:Traceback \(most recent call last\):|During handling of the above exception|The above exception was the direct cause)/;
/** pytest separates long-format entries with a row of `_ _ _`. */
const ENTRY_SEPARATOR = /^(?:_ )+_?\s*$/;
/** Python 3.11+ underlines the failing expression with a row of ^ and ~. */
const MARKER_ONLY = /^[\s^~]+$/;

export const python: Dialect = {
  language: 'python',
  parse: parsePython,
  isLibrary: (frame) => PYTHON_LIBRARY_PATTERNS.some((p) => p.test(frame.file)),
  isTestCode: (frame) =>
    /(?:^|\/)(?:test_[^/]*|[^/]*_test)\.py$/.test(frame.file) || isTestFunctionName(frame),
  isTestFunction: (frame) => isTestFunctionName(frame),
};

/** pytest and unittest collect `test*` functions; `tested`/`testify` are ordinary names. */
function isTestFunctionName(frame: Frame): boolean {
  return /^test(?:[_A-Z0-9]|$)/.test(frame.function ?? '');
}

/**
 * One pass over both dialects, since pytest reports mix them: plain tracebacks (`File "…"`) and
 * pytest's long/short/line formats, where the location line follows or precedes the source.
 */
function parsePython(lines: readonly string[]): ParsedTrace {
  const builder = new TraceBuilder();
  // Lines of the current pytest long-format entry: its `def` line and `>` line come before the location.
  let entry: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const sectionBreak = SECTION_BREAK.test(line.trim());
    if (sectionBreak) builder.startSection();
    const consumed =
      sectionBreak ||
      ENTRY_SEPARATOR.test(line) ||
      addTracebackFrame(builder, lines, i) ||
      addPytestFrame(builder, lines, i, entry);
    if (consumed) entry = [];
    else entry.push(line);
  }
  return builder.build({ innermost: 'last', rootCause: 'first' });
}

function addTracebackFrame(builder: TraceBuilder, lines: readonly string[], i: number): boolean {
  const quoted = /^E\s/.test(lines[i] ?? '');
  const view = quoted ? [unquote(lines[i]), unquote(lines[i + 1])] : [lines[i], lines[i + 1]];
  const match = FILE_LINE.exec(view[0] ?? '');
  if (!match?.[2] || !match[3]) return false;
  builder.add({
    rawFile: match[2],
    line: Number(match[3]),
    column: null,
    function: match[4]?.trim() ?? null,
    qualified: null,
    snippet: sourceLineAfter(view[1], (match[1] ?? '').length),
  });
  return true;
}

/**
 * pytest quotes a SyntaxError's own `File "…", line N` block in `E` lines; that location is
 * where the error is, so read it as a frame.
 */
function unquote(line: string | undefined): string | undefined {
  return line?.replace(/^E(\s)/, ' $1');
}

/** The source line Python prints under a `File` line, deeper indented; absent for some frames. */
function sourceLineAfter(next: string | undefined, indent: number): string | null {
  if (next === undefined || MARKER_ONLY.test(next)) return null;
  const nextIndent = next.length - next.trimStart().length;
  if (nextIndent <= indent || FILE_LINE.test(next)) return null;
  return next.trim();
}

function addPytestFrame(
  builder: TraceBuilder,
  lines: readonly string[],
  i: number,
  entry: string[],
): boolean {
  const line = lines[i] ?? '';
  // `E   …` and `>   …` lines quote messages and source, which may mention paths.
  if (/^[E>]\s/.test(line)) return false;
  const match = PYTEST_LOCATION.exec(line);
  if (!match?.[1] || !match[2]) return false;
  const short = match[3] !== undefined;
  builder.add({
    rawFile: match[1],
    line: Number(match[2]),
    column: null,
    function: short ? (match[3] ?? null) : defName(entry),
    qualified: null,
    snippet: short ? shortSnippet(lines[i + 1]) : failingLine(entry),
  });
  return true;
}

/** pytest --tb=short prints the source line indented under the location. */
function shortSnippet(next: string | undefined): string | null {
  if (next === undefined || !/^\s+\S/.test(next) || MARKER_ONLY.test(next)) return null;
  // `???` stands for source pytest could not read (frozen modules).
  return next.trim() === '???' ? null : next.trim();
}

/** pytest's long format shows the function from its `def` and marks the failing line with `>`. */
function defName(entry: readonly string[]): string | null {
  for (const line of entry) {
    const match = /^\s*(?:async\s+)?def\s+(\w+)\s*\(/.exec(line);
    if (match?.[1]) return match[1];
  }
  return null;
}

function failingLine(entry: readonly string[]): string | null {
  const marked = entry.filter((line) => line.startsWith('>')).pop();
  return marked === undefined ? null : marked.slice(1).trim() || null;
}
