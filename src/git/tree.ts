import { DiagnosisError } from '../errors/index.ts';
import { type EntryKind, TreeEntry } from './schema.ts';

/** Git's file modes (https://git-scm.com/docs/index-format, "object type and permissions"). */
const KIND_BY_MODE: Record<string, EntryKind> = {
  '100644': 'file',
  // Written by very old git versions; git reads it as a normal file.
  '100664': 'file',
  '100755': 'executable',
  '120000': 'symlink',
  '160000': 'submodule',
};

/** Everything one tree holds, indexed for the lookups the locator makes thousands of times. */
export interface TreeIndex {
  entries: readonly TreeEntry[];
  byPath: ReadonlyMap<string, TreeEntry>;
  /** Regular and executable files: what `readFile` can read. */
  files: readonly string[];
}

/**
 * Parses `git ls-tree -r -z` output: records `<mode> SP <type> SP <oid> TAB <path>` separated by
 * NUL (https://git-scm.com/docs/git-ls-tree#_output_format). With `-z` paths are verbatim.
 */
export function parseLsTree(output: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of output.split('\0')) {
    if (record === '') continue;
    const match = /^([0-7]{6}) (\w+) ([0-9a-f]{40,64})\t(.+)$/s.exec(record);
    const kind = match ? KIND_BY_MODE[match[1] as string] : undefined;
    if (match === null || kind === undefined) {
      throw new DiagnosisError('GIT_ERROR', `unexpected ls-tree record "${record.slice(0, 200)}"`);
    }
    entries.push(TreeEntry.parse({ mode: match[1], kind, oid: match[3], path: match[4] }));
  }
  return entries;
}

export function indexTree(entries: readonly TreeEntry[]): TreeIndex {
  const byPath = new Map<string, TreeEntry>();
  const files: string[] = [];
  for (const entry of entries) {
    byPath.set(entry.path, entry);
    if (entry.kind === 'file' || entry.kind === 'executable') files.push(entry.path);
  }
  return { entries: Object.freeze(entries), byPath, files: Object.freeze(files) };
}
