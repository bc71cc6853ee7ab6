import { type FrameFields, TraceBuilder } from './trace-builder.ts';
import type { Dialect, Frame, ParsedFrame, ParsedTrace } from './types.ts';

/** Node internals, installed or vendored packages (allure-vitest's expect wrappers among them), engine built-ins. */
export const JAVASCRIPT_LIBRARY_PATTERNS: readonly RegExp[] = [
  /^node:/,
  /(?:^|\/)node_modules\//,
  /(?:^|\/)vendor\//,
  /^<anonymous>$/,
  /^native$/,
  /^\[native code\]$/,
  /^index \d+$/,
  /^webpack\/(?:bootstrap|runtime)/,
  /^(?:chrome|moz|safari(?:-web)?)-extension:/,
];

/** V8: `at fn (loc)`, `at loc`, `at async fn (loc)`, `at new Cls (loc)`. */
const V8_FRAME = /^\s*at\s+(.+)$/;
/** Firefox/Safari: `fn@url:line:col`, `@url:line:col`, `global code@…`, `fn@[native code]`. */
const GECKO_FRAME = /^\s*([^@\s][^@]*|)@(.+?:\d+:\d+|\[native code\])\s*$/;
/** vitest code frame header: `❯ fn file:line:col` or `❯ file:line:col`. */
const VITEST_FRAME = /^\s*❯\s+(?:(\S.*?)\s+)?(\S+):(\d+):(\d+)\s*$/;
/** vitest code excerpt line: `     12|   code`. */
const EXCERPT = /^\s*(\d+)\|\s?(.*)$/;
/** Error causes: vitest's `Caused by:` and Node's inspected `[cause]:`. */
const CAUSE = /^\s*(?:Caused by:|\[cause\]:)/;

export const javascript: Dialect = {
  language: 'javascript',
  parse: parseJavaScript,
  isLibrary: (frame) =>
    JAVASCRIPT_LIBRARY_PATTERNS.some((p) => p.test(frame.file)) || isOldNodeInternal(frame),
  isTestCode: (frame) => /\.(?:test|spec|cy)\.[cm]?[jt]sx?$|(?:^|\/)__tests__\//.test(frame.file),
  // JS test names are sentences, not functions: the test frame is found by file.
  isTestFunction: () => false,
};

/** Node before 16 printed its internals as bare relative `internal/….js` paths. */
function isOldNodeInternal(frame: Frame): boolean {
  return /^internal\/.*\.js$/.test(frame.rawFile);
}

function parseJavaScript(lines: readonly string[]): ParsedTrace {
  const builder = new TraceBuilder();
  let lastWasVitest = false;
  for (const line of lines) {
    if (CAUSE.test(line)) builder.startSection();
    const frame = parseFrameLine(line);
    if (frame) {
      builder.add(frame);
      lastWasVitest = VITEST_FRAME.test(line);
    } else if (lastWasVitest) {
      attachExcerpt(builder.last(), line);
    }
  }
  return builder.build({ innermost: 'first', rootCause: 'last' });
}

function parseFrameLine(line: string): FrameFields | null {
  return parseVitest(line) ?? parseV8(line) ?? parseGecko(line);
}

/** vitest prints the frame's source among the excerpt lines; keep the one on the frame's line. */
function attachExcerpt(frame: ParsedFrame | undefined, line: string): void {
  const match = EXCERPT.exec(line);
  if (!frame || !match?.[1] || frame.snippet !== null) return;
  if (Number(match[1]) === frame.line) frame.snippet = (match[2] ?? '').trim() || null;
}

function parseVitest(line: string): FrameFields | null {
  const match = VITEST_FRAME.exec(line);
  if (!match?.[2]) return null;
  return frameAt(match[2], Number(match[3]), Number(match[4]), match[1] ?? null);
}

function parseV8(line: string): FrameFields | null {
  // util.inspect opens the error's own properties with ` {` after the last frame.
  const body = V8_FRAME.exec(line)?.[1]
    ?.replace(/\s*\{$/, '')
    .trim();
  if (!body) return null;
  const open = body.indexOf(' (');
  if (open < 0 || !body.endsWith(')')) return location(body, null);
  const fn = body
    .slice(0, open)
    .replace(/^async\s+/, '')
    .replace(/\s\[as [^\]]+\]$/, '');
  return location(body.slice(open + 2, -1), fn);
}

function parseGecko(line: string): FrameFields | null {
  const match = GECKO_FRAME.exec(line);
  if (!match?.[2]) return null;
  // Firefox marks async hops (`async*fn`) and closures (`fn/<`); keep the plain name.
  const fn = (match[1] ?? '').replace(/^.*\*/, '').replace(/\/<+$/, '');
  return location(match[2], fn || null);
}

/** Splits `file:line:col`; `eval at f (…), <anonymous>:1:2` keeps the eval'd code's location. */
function location(raw: string, fn: string | null): FrameFields | null {
  const loc = raw.startsWith('eval at ') ? raw.slice(raw.lastIndexOf(', ') + 2) : raw;
  const match = /^(.*?):(\d+)(?::(\d+))?$/.exec(loc);
  if (match?.[1]) return frameAt(match[1], Number(match[2]), match[3] ? Number(match[3]) : null, fn);
  // A bare `at something` with no location is prose, not a frame, unless it is a known built-in.
  if (!/^(?:<anonymous>|native|index \d+|\[native code\])$/.test(loc)) return null;
  return frameAt(loc, null, null, fn);
}

function frameAt(file: string, line: number | null, column: number | null, fn: string | null): FrameFields {
  return {
    rawFile: file,
    line: line || null,
    column: column || null,
    function: fn,
    qualified: null,
    snippet: null,
  };
}
