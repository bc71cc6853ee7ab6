/**
 * Code text reduced to what survives reformatting: whitespace runs collapse to one space, and
 * a space next to punctuation goes (`foo( a,b )` and `foo(a, b)` are the same line), so a
 * formatter's changes still match exactly. Only used for comparing, never shown.
 */
export function normalizeCode(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (?=\W)|(?<=\W) /g, '');
}

/** Fewer non-space characters than this say nothing about where they are. */
const MIN_SIGNIFICANT_CHARS = 4;

/**
 * Words that, alone with punctuation, make up lines found all over any file (`} else {`,
 * `return null;`, `pass`, `end`, `super();`): a match on them proves nothing.
 */
const FILLER_WORDS = new Set([
  'async',
  'await',
  'begin',
  'break',
  'case',
  'catch',
  'const',
  'continue',
  'def',
  'default',
  'do',
  'done',
  'elif',
  'else',
  'end',
  'esac',
  'except',
  'false',
  'fi',
  'finally',
  'fn',
  'func',
  'function',
  'let',
  'nil',
  'none',
  'null',
  'pass',
  'private',
  'protected',
  'public',
  'raise',
  'return',
  'self',
  'static',
  'super',
  'then',
  'this',
  'throw',
  'true',
  'try',
  'undefined',
  'var',
  'yield',
]);

/** Takes normalized text (see normalizeCode). */
export function isTrivialSnippet(normalized: string): boolean {
  if (normalized.replace(/ /g, '').length < MIN_SIGNIFICANT_CHARS) return true;
  const words = normalized.match(/[A-Za-z_$][\w$]*/g) ?? [];
  return words.every((word) => FILLER_WORDS.has(word.toLowerCase()));
}
