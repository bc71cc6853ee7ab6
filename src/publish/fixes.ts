import type { FixSuggestion } from '../gerrit/index.ts';
import type { Replacement, VerifiedFix } from '../schemas/index.ts';
import { before, linesOf, rangeProblem, show } from '../util/text-range.ts';

export { linesOf, rangeProblem };

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
