import type { Citation, Issue } from '../schemas/index.ts';

/** One line of a text a detector read, 1-based as the evidence store counts lines. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Longest quote a citation carries; a longer line is quoted by a window around the match. */
export const MAX_QUOTE_CHARS = 300;

const FRAME_LINES: readonly RegExp[] = [
  /^\s*at\s/, // Java, JavaScript
  /^\s*\.\.\. \d+ (more|common frames omitted)/, // Java
  /^Traceback \(most recent call last\)|^During handling of the above exception|^The above exception was the direct cause/, // Python
  /^goroutine \d+ \[|^created by |^\s+\S+\.go:\d+(?: \+0x[0-9a-f]+)?$|^[^\s(]+\.[^\s(]+\(.*\)$/, // Go
  /^(=== (RUN|PAUSE|CONT|NAME)|--- (FAIL|PASS|SKIP):)/, // go test -v
  /^\s*❯\s|^\s*\d+\s*\|\s|^\s*\|\s*\^/, // vitest pretty output: frames and source excerpts
  /^\s*[\^~]+\s*$/, // Python 3.11+ and vitest markers under the failing expression
];

/** A Go frame is two lines: the function call, then its file position. */
const GO_POSITION = /^\s+\S+\.go:\d+(?: \+0x[0-9a-f]+)?$/;

/**
 * The lines of a trace that state the failure: the header, "Caused by:" chains, pytest's `E`
 * lines, Go's panic and t.Errorf lines — not frames and not the source lines tracebacks quote.
 * Source lines are where false positives come from: a test that asserts on "Connection
 * refused" or builds a log string quotes it in its own code.
 */
export function reasonLines(trace: string): NumberedLine[] {
  const lines = numbered(trace);
  // pytest's long format quotes whole functions; only its `E` lines are the failure.
  if (lines.some((l) => /^E\s/.test(l.text))) return lines.filter((l) => /^E\s/.test(l.text));
  const out: NumberedLine[] = [];
  let quotedSource = false;
  for (const [i, l] of lines.entries()) {
    if (GO_POSITION.test(lines[i + 1]?.text ?? '')) continue;
    // CPython quotes the frame's source on the line after `File "…", line N`.
    const isSource = quotedSource && /^\s{4,}\S/.test(l.text);
    quotedSource = /^\s*File ".*", line \d+/.test(l.text);
    if (isSource || quotedSource || l.text.trim() === '') continue;
    if (FRAME_LINES.some((re) => re.test(l.text))) continue;
    out.push(l);
  }
  return out;
}

export function numbered(text: string): NumberedLine[] {
  return text.split(/\r?\n/).map((t, i) => ({ line: i + 1, text: t }));
}

/**
 * A verbatim quote of a stored line: the whole line, or for a long one (minified JSON, a
 * one-line log) a window around the match — still an exact substring of that line.
 */
export function quoteOf(text: string, match: { index: number; length: number }): string {
  if (text.length <= MAX_QUOTE_CHARS) return text;
  const pad = Math.max(0, Math.floor((MAX_QUOTE_CHARS - match.length) / 2));
  const start = Math.max(0, Math.min(match.index - pad, text.length - MAX_QUOTE_CHARS));
  return text.slice(start, start + MAX_QUOTE_CHARS);
}

export function evidenceCite(id: string, line: NumberedLine, quote: string): Citation {
  return { kind: 'evidence', id, lines: { start: line.line, end: line.line }, quote };
}

export function factCite(issue: Pick<Issue, 'id'>, index: number): Citation {
  return { kind: 'fact', issue_id: issue.id, index };
}

/** For details: one line, bounded. */
export function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
