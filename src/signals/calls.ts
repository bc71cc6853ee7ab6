import type { RevisionCode } from '../context/index.ts';
import type { FileDiff } from '../git/index.ts';
import { languageOfPath } from '../locate/anchor/index.ts';
import type { Citation, Issue, LineRange, Signal, VerifiedLocation } from '../schemas/index.ts';
import { type ChangedFileSpan, callNames, changedFileSpans, linesOf, showLines, simpleName } from './code.ts';
import type { DiffLink } from './impact.ts';
import { isTestFile } from './impact.ts';
import { targetCite } from './targets.ts';

/** Changed ranges a call link cites (the first ones of the callee). */
const MAX_CITED_RANGES = 2;

/**
 * Call links: the code of a located project frame calls, by name, a function of another file
 * that this change modified. The stack cannot show such a function when it returned before the
 * failure (an assembler that built a wrong command, a price function whose result the test
 * asserts): the frame's line, or its function's lines before it, called it on the failing path.
 *
 * - Where a frame is scanned: a `line` candidate from its function's first line to the
 *   confirmed line; a `function` candidate to the reported line when that lies in the function
 *   (else the whole function, and the link is weak); a `file` candidate only on its reported
 *   line, unconfirmed, so weak. Lines after the failing line did not run before the failure.
 * - Callees are resolved by simple name among the parsed functions of the change's files
 *   (`code.functions`): cheap, since changed files are few. A frame's own function, functions on
 *   the stack (the locator's diff impact covers those) and the frame's own file (its same-file
 *   callees are the locator's `related_functions`) are left out.
 * - Order: outer frames first (Python prints them first; JVM, V8 and Go last), then by line:
 *   the earliest call on the path comes first, which is where the earliest deviation can start.
 *
 * Name resolution is not type resolution: `store.get(` matches every changed `get`. Each match
 * is its own link, so an ambiguous name shows as several candidates rather than a silent pick.
 */
export interface CallScan {
  /** Calls of functions this change modified, earliest first. */
  links: DiffLink[];
  /**
   * `no_diff_link` signals: the failing assertion (a test frame with no project frame inside
   * it) calls functions of the changed files that this change did not modify. They name the
   * code under test and say the change left it alone; they never decide a verdict.
   */
  untouched: Signal[];
}

interface Window {
  frame: VerifiedLocation;
  file: string;
  lines: LineRange;
  /** The failing line of the frame (the last of the window) when it is known. */
  line: number | null;
  confirmed: boolean;
}

interface Call {
  window: Window;
  line: number;
  callee: ChangedFileSpan;
  /** The unmodified function of a changed file the frame called, which calls `callee`. */
  through?: ChangedFileSpan;
}

export async function callLinks(
  issue: Issue,
  ctx: { diff: readonly FileDiff[]; code: Pick<RevisionCode, 'read' | 'functions'> },
): Promise<CallScan> {
  const frames = callOrder(
    (issue.candidates ?? []).filter((c) => c.file !== null && c.level !== 'need_evidence'),
  );
  if (frames.length === 0 || ctx.diff.length === 0) return { links: [], untouched: [] };
  const spans = await changedFileSpans(ctx.diff, ctx.code);
  if (spans.length === 0) return { links: [], untouched: [] };
  const onStack = new Set(
    frames.flatMap((c) => (c.function === null ? [] : [`${c.file}#${c.function.name}`])),
  );
  const calls: Call[] = [];
  const untouchedAt: Array<{ window: Window; callees: ChangedFileSpan[] }> = [];
  const innermost = frames.at(-1);
  for (const frame of frames) {
    const window = windowOf(frame);
    if (window === null) continue;
    const lines = await linesOf(ctx.code, window.file);
    if (lines === null) continue;
    const own = frame.function === null ? null : simpleName(frame.function.name);
    const untouched: ChangedFileSpan[] = [];
    for (let n = window.lines.start; n <= Math.min(window.lines.end, lines.length); n++) {
      for (const name of callNames(lines[n - 1] ?? '')) {
        if (name === own) continue;
        for (const callee of spans) {
          if (simpleName(callee.span.name) !== name || callee.file === window.file) continue;
          if (onStack.has(`${callee.file}#${callee.span.name}`)) continue;
          if (callee.changed.length > 0) {
            calls.push({ window, line: n, callee });
            continue;
          }
          if (n === window.line) untouched.push(callee);
          for (const inner of await changedCallees(callee, spans, ctx.code, onStack))
            calls.push({ window, line: n, callee: inner, through: callee });
        }
      }
    }
    if (frame === innermost && frame.reported.role === 'test' && untouched.length > 0)
      untouchedAt.push({ window, callees: untouched });
  }
  const links = firstCalls(calls).map(callLink);
  const failingLineLinked = calls.some((c) => c.window.frame === innermost && c.through === undefined);
  return {
    links,
    untouched: failingLineLinked
      ? []
      : untouchedAt.map(({ window, callees }) => untouchedSignal(window, callees)),
  };
}

/**
 * One hop further: the modified functions that an unmodified function of a changed file calls
 * in its body (a public `NewV7` whose helper `makeV7` the change rewrote). Only functions of
 * the changed files are followed, so the hop stays within the code the change touched.
 */
async function changedCallees(
  fn: ChangedFileSpan,
  spans: readonly ChangedFileSpan[],
  code: Pick<RevisionCode, 'read'>,
  onStack: ReadonlySet<string>,
): Promise<ChangedFileSpan[]> {
  const lines = await linesOf(code, fn.file);
  if (lines === null) return [];
  const own = simpleName(fn.span.name);
  const names = new Set<string>();
  for (let n = fn.span.lines.start; n <= Math.min(fn.span.lines.end, lines.length); n++)
    for (const name of callNames(lines[n - 1] ?? '')) if (name !== own) names.add(name);
  return spans.filter(
    (s) =>
      s !== fn &&
      s.changed.length > 0 &&
      names.has(simpleName(s.span.name)) &&
      !onStack.has(`${s.file}#${s.span.name}`),
  );
}

/** Outer frames first: Python prints the outermost frame first, the JVM, V8 and Go the innermost. */
function callOrder(frames: readonly VerifiedLocation[]): VerifiedLocation[] {
  const depth = (c: VerifiedLocation) =>
    languageOfPath(c.file ?? '') === 'python' ? c.reported.frame_index : -c.reported.frame_index;
  return [...frames].sort((a, b) => depth(a) - depth(b));
}

function windowOf(c: VerifiedLocation): Window | null {
  const file = c.file as string;
  const fn = c.function;
  if (c.level === 'line' && c.lines !== null) {
    const start = fn !== null && fn.lines.start <= c.lines.start ? fn.lines.start : c.lines.start;
    return { frame: c, file, lines: { start, end: c.lines.end }, line: c.lines.end, confirmed: true };
  }
  if (c.level === 'function' && fn !== null) {
    const reported = c.reported.line;
    const inside = reported !== null && reported >= fn.lines.start && reported <= fn.lines.end;
    return {
      frame: c,
      file,
      lines: { start: fn.lines.start, end: inside ? reported : fn.lines.end },
      line: inside ? reported : null,
      confirmed: inside,
    };
  }
  const reported = c.reported.line;
  if (reported === null) return null;
  return { frame: c, file, lines: { start: reported, end: reported }, line: reported, confirmed: false };
}

/** Each callee once, at its earliest call; the order of `calls` is the path's order. */
function firstCalls(calls: readonly Call[]): Call[] {
  const seen = new Set<string>();
  return calls.filter((c) => {
    const key = `${c.callee.file}#${c.callee.span.name}#${c.callee.span.lines.start}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function callLink(call: Call): DiffLink {
  const { window, callee } = call;
  const frame = describeFrame(window);
  const when =
    window.line !== null && call.line < window.line ? ` on line ${call.line}, before the failing line` : '';
  const unconfirmed = window.confirmed ? '' : ' (the frame line as reported; the locator did not confirm it)';
  const hop = call.through === undefined ? '' : `${call.through.span.name}, which calls `;
  const detail = `${frame} calls ${hop}${callee.span.name}${when}${unconfirmed}, which this change modified in ${callee.file} (${callee.changed
    .slice(0, MAX_CITED_RANGES)
    .map(showLines)
    .join(', ')})`;
  const cites: Citation[] = [
    ...callee.changed
      .slice(0, MAX_CITED_RANGES)
      .map((lines): Citation => ({ kind: 'diff', file: callee.file, lines })),
    { kind: 'code', file: window.file, lines: { start: call.line, end: call.line } },
    ...(call.through === undefined
      ? []
      : [{ kind: 'code', file: call.through.file, lines: call.through.span.lines } satisfies Citation]),
    { kind: 'code', file: callee.file, lines: callee.span.lines },
    targetCite('changed_function', {
      file: callee.file,
      function: callee.span.name,
      lines: callee.span.lines,
    }),
  ];
  return {
    // One hop further is only a candidate: the intermediate may not reach the changed code on
    // this path (a `post` that verifies and returns before the failing line).
    strength: window.confirmed && call.through === undefined ? 'strong' : 'weak',
    via: isTestFile(callee.file) ? 'test' : 'call',
    file: callee.file,
    signal: { kind: 'diff_impact', detail, cites },
  };
}

function untouchedSignal(window: Window, callees: readonly ChangedFileSpan[]): Signal {
  const names = callees.map((c) => `${c.span.name} (${c.file}:${c.span.lines.start}-${c.span.lines.end})`);
  const line = window.line as number;
  return {
    kind: 'no_diff_link',
    detail: `the failing line ${window.file}:${line} calls ${names.join(', ')}, which this change did not modify (it modified other lines of ${[
      ...new Set(callees.map((c) => c.file)),
    ].join(', ')})`,
    cites: [
      { kind: 'code', file: window.file, lines: { start: line, end: line } },
      ...callees.flatMap((c): Citation[] => [
        { kind: 'code', file: c.file, lines: c.span.lines },
        targetCite('callee', { file: c.file, function: c.span.name, lines: c.span.lines }),
      ]),
    ],
  };
}

function describeFrame(w: Window): string {
  const role = w.frame.reported.role === 'frame' ? 'the frame' : `the ${w.frame.reported.role} frame`;
  const fn = w.frame.function === null ? '' : ` (${w.frame.function.name})`;
  return `${role} ${w.file}${w.line === null ? '' : `:${w.line}`}${fn}`;
}
