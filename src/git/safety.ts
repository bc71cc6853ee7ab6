import { DiagnosisError } from '../errors/index.ts';

/** Longer than any real repository path; beyond it a "path" is an attack or garbage. */
const MAX_PATH_CHARS = 4096;
const MAX_REVISION_CHARS = 512;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const DRIVE_LETTER = /^[A-Za-z]:/;

/**
 * A repository-relative, normalised posix path, or null when the candidate would leave the
 * repository or is not a path at all. Paths from reports are hostile input: absolute paths,
 * drive letters, `..` climbing above the root, NUL and other control characters are refused.
 * Windows separators are normalised first so `..\\..\\x` cannot slip through as one segment.
 */
export function safeRepoPath(candidate: string): string | null {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > MAX_PATH_CHARS)
    return null;
  if (CONTROL_CHARS.test(candidate)) return null;
  const slashed = candidate.replaceAll('\\', '/');
  if (slashed.startsWith('/') || DRIVE_LETTER.test(slashed)) return null;
  const segments: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return segments.length === 0 ? null : segments.join('/');
}

/** `safeRepoPath` for callers that must not continue with a refused path. */
export function requireRepoPath(candidate: string): string {
  const safe = safeRepoPath(candidate);
  if (safe === null) {
    throw new DiagnosisError('PATH_REFUSED', `path "${printable(candidate)}" is not inside the repository`, {
      input: printable(candidate),
    });
  }
  return safe;
}

/**
 * Revisions reach git as arguments and as lines of the `cat-file --batch` protocol, so a leading
 * dash (option injection), whitespace and control characters (protocol framing) are refused.
 */
export function requireRevision(rev: string): string {
  const bad =
    typeof rev !== 'string' ||
    rev.length === 0 ||
    rev.length > MAX_REVISION_CHARS ||
    rev.startsWith('-') ||
    /\s/.test(rev) ||
    CONTROL_CHARS.test(rev);
  if (bad) {
    throw new DiagnosisError('INVALID_ARGUMENT', `"${printable(String(rev))}" is not a git revision`, {
      input: printable(String(rev)),
    });
  }
  return rev;
}

/** For messages: hostile input is shown, but never with its control characters. */
function printable(text: string): string {
  return JSON.stringify(text.slice(0, 200)).slice(1, -1);
}
