import type { RevisionCode } from '../context/index.ts';
import type { FileDiff } from '../git/index.ts';
import { type CodeSpan, languageOfPath } from '../locate/anchor/index.ts';
import type { LineRange } from '../schemas/index.ts';

/** Changed files whose functions are parsed: changed files are few, and a huge change stays bounded. */
export const MAX_CHANGED_FILES = 50;

/** The lines of a file at a revision (1-based: `lines[n - 1]`), or null when it is not there. */
export async function linesOf(code: Pick<RevisionCode, 'read'>, path: string): Promise<string[] | null> {
  const text = await code.read(path);
  return text === null ? null : text.split(/\r?\n/);
}

/**
 * A line without its comment: comment-only lines (`#`, `//`, `/*`, `*`) are empty, a trailing
 * `#` or `//` comment after whitespace is cut. Good enough to keep prose out of call and name
 * scans; a `#` inside a string after a space is cut too, which only loses a name.
 */
export function codeOf(line: string): string {
  const t = line.trim();
  if (/^(?:#|\/\/|\/\*|\*)/.test(t)) return '';
  return line.replace(/\s(?:#|\/\/).*$/, '');
}

/** Words before `(` that are syntax, not calls. */
const NOT_CALLS = new Set([
  'if',
  'elif',
  'for',
  'foreach',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'def',
  'class',
  'new',
  'typeof',
  'sizeof',
  'lambda',
  'assert',
  'not',
  'and',
  'or',
  'in',
  'await',
  'yield',
  'func',
  'super',
  'this',
  'synchronized',
  'with',
  'except',
  'print',
]);

/** The names a line of code calls (`f(`, `obj.f(`, `pkg.F(`), in order, each once. */
export function callNames(line: string): string[] {
  const names: string[] = [];
  for (const m of codeOf(line).matchAll(/(?<![\w$])([A-Za-z_$][\w$]*)\s*\(/g)) {
    const name = m[1] as string;
    if (!NOT_CALLS.has(name) && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The last segment of a parser name: `LoginController.login` → `login`. */
export function simpleName(name: string): string {
  const trimmed = name.replace(/[()*]/g, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('.'), trimmed.lastIndexOf('$')) + 1);
}

/**
 * The target-side lines each hunk touches. A pure deletion has no target lines: it sits
 * between `newStart` and the next line, so both neighbours count (as the checker counts them).
 */
export function changedRanges(d: FileDiff): LineRange[] {
  return d.hunks.map((h) =>
    h.newLines > 0
      ? { start: h.newStart, end: h.newStart + h.newLines - 1 }
      : { start: Math.max(h.newStart, 1), end: h.newStart + 1 },
  );
}

export function overlaps(a: LineRange, b: LineRange): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/** A function of a changed file, and the changed ranges inside it (empty: the change did not modify it). */
export interface ChangedFileSpan {
  file: string;
  span: CodeSpan;
  changed: LineRange[];
}

/**
 * Every named function of the change's files at the revision (callbacks have no name to call
 * them by), with the changed ranges inside each. Parses at most `MAX_CHANGED_FILES` files of a
 * language the parser knows.
 */
export async function changedFileSpans(
  diff: readonly FileDiff[],
  code: Pick<RevisionCode, 'functions'>,
): Promise<ChangedFileSpan[]> {
  const out: ChangedFileSpan[] = [];
  const files = diff.filter(
    (d) => d.newPath !== null && d.hunks.length > 0 && languageOfPath(d.newPath) !== null,
  );
  for (const d of files.slice(0, MAX_CHANGED_FILES)) {
    const file = d.newPath as string;
    const ranges = changedRanges(d);
    for (const span of await code.functions(file)) {
      if (span.kind === 'callback') continue;
      out.push({ file, span, changed: ranges.filter((r) => overlaps(r, span.lines)) });
    }
  }
  return out;
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `name` as a whole word (identifier characters on neither side). */
export function wordIn(text: string, name: string, flags = ''): boolean {
  return new RegExp(`(?<![\\w$])${escapeRegex(name)}(?![\\w$])`, flags).test(text);
}

export { showLines } from '../util/text-range.ts';
