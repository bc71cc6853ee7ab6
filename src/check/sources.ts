import type { DiagnosisContext } from '../context/index.ts';
import { isDiagnosisError } from '../errors/index.ts';
import type { CodeSpan } from '../locate/anchor/index.ts';
import { splitLines } from './lines.ts';

/** A file at the revision: absent, present but not readable as text (with why), or its lines. */
export type CodeFile =
  | { kind: 'absent' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'text'; lines: readonly string[] };

/**
 * What the checks read, each item once per check: a draft cites the same file or log many
 * times, and the degrade re-checks its result.
 */
export interface Sources {
  code(path: string): Promise<CodeFile>;
  /** Functions the parser finds in the file; none for a missing, unreadable or unparsed file. */
  functions(path: string): Promise<readonly CodeSpan[]>;
  /** An evidence item's lines, or null when the store has no item of that id. */
  evidence(id: string): Promise<readonly string[] | null>;
}

export function sourcesOf(ctx: DiagnosisContext): Sources {
  const files = memo((path: string) => readCode(ctx, path));
  const spans = memo((path: string) => readFunctions(ctx, path));
  const items = memo((id: string) => readEvidence(ctx, id));
  let listing: Promise<ReadonlySet<string>> | undefined;
  const paths = () => {
    listing ??= ctx.code.list().then((all) => new Set(all));
    return listing;
  };
  return {
    // The listing answers "does it exist" without handing a hostile path to the object reader.
    code: async (path) => ((await paths()).has(path) ? files(path) : { kind: 'absent' }),
    functions: async (path) => ((await paths()).has(path) ? spans(path) : []),
    evidence: items,
  };
}

function memo<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let hit = seen.get(key);
    if (hit === undefined) {
      hit = read(key);
      seen.set(key, hit);
    }
    return hit;
  };
}

/** Symlinks, submodules and oversized files exist but cannot be read: their lines cannot be checked. */
async function readCode(ctx: DiagnosisContext, path: string): Promise<CodeFile> {
  try {
    const text = await ctx.code.read(path);
    return text === null ? { kind: 'absent' } : { kind: 'text', lines: splitLines(text) };
  } catch (err: unknown) {
    if (isDiagnosisError(err) && (err.code === 'PATH_REFUSED' || err.code === 'FILE_TOO_LARGE'))
      return { kind: 'unreadable', reason: err.message };
    throw err;
  }
}

async function readFunctions(ctx: DiagnosisContext, path: string): Promise<readonly CodeSpan[]> {
  try {
    return await ctx.code.functions(path);
  } catch (err: unknown) {
    if (isDiagnosisError(err) && (err.code === 'PATH_REFUSED' || err.code === 'FILE_TOO_LARGE')) return [];
    throw err;
  }
}

async function readEvidence(ctx: DiagnosisContext, id: string): Promise<readonly string[] | null> {
  try {
    ctx.evidence.get(id);
  } catch (err: unknown) {
    if (isDiagnosisError(err) && err.code === 'EVIDENCE_NOT_FOUND') return null;
    throw err;
  }
  return splitLines(await ctx.evidence.readAll(id));
}
