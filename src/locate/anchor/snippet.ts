import { distance } from 'fastest-levenshtein';
import type { LineRange } from '../../schemas/index.ts';
import { type EditLowerBound, editLowerBound } from './char-bound.ts';
import { isTrivialSnippet, normalizeCode } from './snippet-text.ts';

/** Below this similarity a line is a different line, not an edited one. */
export const MIN_SNIPPET_SCORE = 0.85;
/** How far the best match must lead the next one to count as the only place. */
export const CLEAR_LEAD = 0.05;
/** Float slack so that 0.9 - 0.85 still counts as a lead of 0.05. */
const EPSILON = 1e-9;

export interface SnippetMatch {
  /** 1-based line number. */
  line: number;
  /** 1 for the same normalized text, else 1 - levenshtein / longer length. */
  score: number;
}

export interface SnippetResult {
  /** Best first; equal scores nearest to `near` first, then by line. */
  matches: SnippetMatch[];
  best: SnippetMatch | null;
  /** One match at the best score, clearly ahead of any other: the only place the snippet can be. */
  unique: boolean;
}

export interface SnippetOptions {
  /** Only these lines are searched (e.g. the function the frame names). */
  within?: LineRange;
  /** Orders equal scores by distance to this line; never makes an ambiguous match unique. */
  near?: number;
}

/** A file's lines normalized once, for the many searches the locator runs on the same file. */
export interface PreparedLines {
  readonly normalized: readonly string[];
}

export function prepareLines(lines: readonly string[]): PreparedLines {
  return { normalized: lines.map(normalizeCode) };
}

/**
 * Where a one-line snippet (a frame's source line) is in a file: exact after whitespace
 * normalization, or similar enough to be the same line lightly edited. Trivial snippets
 * (`}`, `return null;`) match nothing: their matches would prove nothing.
 */
export function findSnippet(
  lines: readonly string[] | PreparedLines,
  snippet: string,
  options: SnippetOptions = {},
): SnippetResult {
  const target = normalizeCode(snippet);
  if (isTrivialSnippet(target)) return { matches: [], best: null, unique: false };
  const matches = scanLines(lines, target, options.within);
  sortMatches(matches, options.near);
  const best = matches[0] ?? null;
  const second = matches[1];
  const unique = best !== null && (second === undefined || best.score - second.score >= CLEAR_LEAD - EPSILON);
  return { matches, best, unique };
}

function scanLines(
  lines: readonly string[] | PreparedLines,
  target: string,
  within?: LineRange,
): SnippetMatch[] {
  const textAt = lineReader(lines, Math.ceil(target.length * MIN_SNIPPET_SCORE));
  const count = isPrepared(lines) ? lines.normalized.length : lines.length;
  const last = Math.min(count, within?.end ?? count);
  const bound = editLowerBound(target);
  const matches: SnippetMatch[] = [];
  for (let line = Math.max(1, within?.start ?? 1); line <= last; line++) {
    const text = textAt(line - 1);
    const score = text === null ? 0 : similarity(text, target, bound);
    if (score >= MIN_SNIPPET_SCORE) matches.push({ line, score });
  }
  return matches;
}

/** The normalized text of a line (0-based index), or null when it is certainly too short to match. */
function lineReader(
  lines: readonly string[] | PreparedLines,
  shortest: number,
): (index: number) => string | null {
  if (isPrepared(lines)) return (index) => lines.normalized[index] ?? null;
  // Normalizing never lengthens a line: a raw line already too short is skipped unnormalized.
  return (index) => {
    const raw = lines[index] ?? '';
    return raw.length < shortest ? null : normalizeCode(raw);
  };
}

/**
 * Edit distance is at least the difference in length, so a line more than 15% longer or
 * shorter cannot reach 0.85 and is skipped without running levenshtein; so is a line whose
 * characters differ too much (see char-bound.ts). Both filters are exact: no match is lost.
 */
function similarity(text: string, target: string, bound: EditLowerBound): number {
  if (text === target) return 1;
  const longer = Math.max(text.length, target.length);
  const allowed = (1 - MIN_SNIPPET_SCORE) * longer;
  if (Math.abs(text.length - target.length) > allowed || bound(text) > allowed) return 0;
  return 1 - distance(text, target) / longer;
}

function sortMatches(matches: SnippetMatch[], near: number | undefined): void {
  matches.sort(
    (a, b) =>
      b.score - a.score ||
      (near === undefined ? 0 : Math.abs(a.line - near) - Math.abs(b.line - near)) ||
      a.line - b.line,
  );
}

function isPrepared(lines: readonly string[] | PreparedLines): lines is PreparedLines {
  return !Array.isArray(lines);
}
