import type { DiagnosisContext } from '../context/index.ts';
import { isDiagnosisError } from '../errors/index.ts';
import { LIMITS } from './limits.ts';
import { looksBinary } from './read-file.ts';
import { clipLine, splitLines } from './text.ts';

export interface ScanHit {
  file: string;
  line: number;
  text: string;
}

export interface ScanOptions {
  /** Only files whose path starts with this (a folder, e.g. `src/order/`). */
  pathPrefix?: string | null | undefined;
  /** Tested against each line (its first `MATCH_CHARS` characters). */
  match: (line: string) => boolean;
  maxHits: number;
  /** Clock for the time budget (ms); injectable so tests need not be slow. */
  now?: () => number;
}

export type ScanStop = 'hits' | 'files' | 'bytes' | 'time';

export interface ScanResult {
  hits: ScanHit[];
  /** Files under the prefix, searchable or not. */
  filesTotal: number;
  filesSearched: number;
  /** Binary, too large or unreadable (symlinks, submodules): not searched. */
  filesSkipped: number;
  /** Which bound ended the scan early; null when every file was searched. */
  stoppedBy: ScanStop | null;
}

/**
 * Only this much of a line is matched: it bounds the cost of any one pattern on one line
 * (minified code has lines of megabytes) — the main defence against a pathological regex.
 */
const MATCH_CHARS = 1_000;
const HIT_CHARS = 200;

/** Extensions that are never text worth searching; NUL detection catches the rest. */
const BINARY_EXTENSION =
  /\.(png|jpe?g|gif|bmp|ico|webp|pdf|zip|gz|tgz|bz2|xz|7z|jar|war|class|so|dylib|dll|exe|o|a|bin|wasm|woff2?|ttf|otf|eot|mp[34]|mov|avi|sqlite|db)$/i;

/**
 * Searches files at the revision line by line, in process, through `ctx.code` — so it works on
 * any DiagnosisContext (git or Gerrit backed) and reads through the same cached object reader
 * as every other tool. Every bound (hits, files, characters, wall time) ends the scan early and
 * says which one did, so the caller can report `truncated` and the model can narrow the prefix.
 */
export async function scanFiles(ctx: DiagnosisContext, options: ScanOptions): Promise<ScanResult> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const prefix = normalisePrefix(options.pathPrefix);
  const files = (await ctx.code.list()).filter((file) => file.startsWith(prefix));
  const result: ScanResult = {
    hits: [],
    filesTotal: files.length,
    filesSearched: 0,
    filesSkipped: 0,
    stoppedBy: null,
  };
  let chars = 0;
  for (const file of files) {
    result.stoppedBy = bound(result.filesSearched, chars, now() - started);
    if (result.stoppedBy !== null) break;
    const text = BINARY_EXTENSION.test(file) ? null : await readSearchable(ctx, file);
    if (text === null) {
      result.filesSkipped++;
      continue;
    }
    result.filesSearched++;
    chars += text.length;
    if (collect(file, text, options, result.hits)) {
      result.stoppedBy = 'hits';
      break;
    }
  }
  return result;
}

function bound(files: number, chars: number, elapsedMs: number): ScanStop | null {
  if (files >= LIMITS.maxSearchFiles) return 'files';
  if (chars >= LIMITS.maxSearchChars) return 'bytes';
  if (elapsedMs >= LIMITS.maxSearchMs) return 'time';
  return null;
}

/** Adds the file's matching lines to `hits`; true when the hit cap is reached. */
function collect(file: string, text: string, options: ScanOptions, hits: ScanHit[]): boolean {
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!options.match(line.length > MATCH_CHARS ? line.slice(0, MATCH_CHARS) : line)) continue;
    hits.push({ file, line: i + 1, text: clipLine(line.trim(), HIT_CHARS) });
    if (hits.length >= options.maxHits) return true;
  }
  return false;
}

/** The file's text, or null when it is not worth or not allowed to search. */
async function readSearchable(ctx: DiagnosisContext, file: string): Promise<string | null> {
  let text: string | null;
  try {
    text = await ctx.code.read(file);
  } catch (err: unknown) {
    // Refusals of one file (too large, a symlink) skip it; anything else is a real failure.
    if (isDiagnosisError(err) && (err.code === 'FILE_TOO_LARGE' || err.code === 'PATH_REFUSED')) return null;
    throw err;
  }
  if (text === null || text.length > LIMITS.maxSearchFileChars || looksBinary(text)) return null;
  return text;
}

function normalisePrefix(prefix: string | null | undefined): string {
  return (prefix ?? '').replace(/^(\.\/|\/)+/, '');
}
