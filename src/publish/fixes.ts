import type { FixSuggestion } from '../gerrit/index.ts';
import type { Replacement, TextRange, VerifiedFix } from '../schemas/index.ts';

/** A fix as Gerrit's `fix_suggestions` entry, or why it cannot be one. */
export type EncodedFix = { ok: true; fix: Omit<FixSuggestion, 'fix_id'> } | { ok: false; reason: string };

/** Reads a file's text at the revision (null when absent), for checking ranges. */
export type TextOf = (path: string) => Promise<string | null>;

/**
 * Encodes a verified fix for Gerrit, checking first what Gerrit would reject with a 400 that
 * fails the whole review: replacement files outside the patchset, ranges outside the file's
 * text, ranges that end before they start, and overlapping replacements in one file.
 */
export async function encodeFix(
  fix: VerifiedFix,
  patchsetFiles: ReadonlySet<string>,
  textOf: TextOf,
): Promise<EncodedFix> {
  for (const r of fix.replacements) {
    if (!patchsetFiles.has(r.path)) return { ok: false, reason: `${r.path} is not a file of this patchset` };
    const text = await textOf(r.path);
    if (text === null) return { ok: false, reason: `${r.path} does not exist at the revision` };
    const problem = rangeProblem(r.range, linesOf(text));
    if (problem !== null) return { ok: false, reason: `${r.path}: ${problem}` };
  }
  const overlap = firstOverlap(fix.replacements);
  if (overlap !== null) return { ok: false, reason: overlap };
  return {
    ok: true,
    fix: {
      description: fix.description,
      replacements: fix.replacements.map(({ path, range, replacement }) => ({ path, range, replacement })),
    },
  };
}

/** A file's lines as Gerrit numbers them: a final newline ends the last line, it does not start another. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Null when the range lies inside the text; a line past the last is allowed only at character 0 (append). */
export function rangeProblem(range: TextRange, lines: readonly string[]): string | null {
  const { start_line, start_character, end_line, end_character } = range;
  if (before(end_line, end_character, start_line, start_character))
    return `range ${show(range)} ends before it starts`;
  for (const [line, character] of [
    [start_line, start_character],
    [end_line, end_character],
  ] as const) {
    const text = lines[line - 1];
    const endOfFile = line === lines.length + 1 && character === 0;
    if (text === undefined && !endOfFile)
      return `line ${line} is past the end of the file (${lines.length} lines)`;
    if (text !== undefined && character > text.length) {
      return `character ${character} is past the end of line ${line} (${text.length} characters)`;
    }
  }
  return null;
}

/** The first pair of replacements in one file whose ranges overlap (touching is fine). */
export function firstOverlap(replacements: readonly Replacement[]): string | null {
  const sorted = [...replacements].sort(
    (a, b) =>
      a.path.localeCompare(b.path) ||
      a.range.start_line - b.range.start_line ||
      a.range.start_character - b.range.start_character,
  );
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const next = sorted[i];
    if (prev === undefined || next === undefined || prev.path !== next.path) continue;
    if (
      before(next.range.start_line, next.range.start_character, prev.range.end_line, prev.range.end_character)
    ) {
      return `replacements in ${next.path} overlap: ${show(prev.range)} and ${show(next.range)}`;
    }
  }
  return null;
}

function before(lineA: number, charA: number, lineB: number, charB: number): boolean {
  return lineA < lineB || (lineA === lineB && charA < charB);
}

function show(r: TextRange): string {
  return `${r.start_line}:${r.start_character}-${r.end_line}:${r.end_character}`;
}
