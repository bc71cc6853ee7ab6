import type { FileDiff, Hunk } from '../git/schema.ts';
import type { DiffContent, DiffInfo } from './schema.ts';

/** `project~number`, the change id Gerrit resolves without ambiguity (rest-api-changes "change-id"). */
export function changeIdOf(project: string, changeNumber: number): string {
  return `${project}~${changeNumber}`;
}

/** A change id, revision id or file id as one URL path segment (`/` in projects and paths → %2F). */
export function encodeSegment(id: string | number): string {
  return encodeURIComponent(String(id));
}

/**
 * Gerrit's magic files (`/COMMIT_MSG`, `/MERGE_LIST`, …) are not repository files; real paths
 * never start with a slash.
 */
export function isMagicPath(path: string): boolean {
  return path.startsWith('/');
}

/**
 * Gerrit splits a file that ends with a newline into one more line than git counts: an empty
 * last "line" after the final newline (`a\nb\n` has `meta.lines` 3 and content `["a","b",""]`).
 * A real last line is never empty (it would end with a newline), so an empty last line of a side
 * is that artefact. It only matters when it sits in an `a`/`b` chunk (a whole file added or
 * deleted, or a change in its trailing newline); it is dropped there.
 */
export function dropEndOfFileLine(content: readonly DiffContent[]): DiffContent[] {
  const chunks = content.map((c) => ({ ...c }));
  for (const side of ['a', 'b'] as const) {
    for (let i = chunks.length - 1; i >= 0; i--) {
      const chunk = chunks[i] as DiffContent;
      if ((chunk.ab?.length ?? 0) > 0 || (chunk.skip ?? 0) > 0) break;
      const lines = chunk[side];
      if (lines === undefined || lines.length === 0) continue;
      if (lines[lines.length - 1] === '') chunk[side] = lines.slice(0, -1);
      break;
    }
  }
  return chunks;
}

/**
 * DiffInfo `content` chunks → exact hunks in git's `-U0` convention. Each run of `a`/`b` chunks
 * between `ab`/`skip` chunks is one hunk; a side with no lines (pure insertion or deletion) has
 * its start at the line *before* the change (0 at the top of the file), as `@@ -5,0 +6,2 @@`.
 */
export function diffContentToHunks(content: readonly DiffContent[]): Hunk[] {
  const hunks: Hunk[] = [];
  let aLine = 0;
  let bLine = 0;
  let open: { aBefore: number; bBefore: number; oldLines: number; newLines: number } | undefined;
  const close = () => {
    if (open === undefined) return;
    if (open.oldLines > 0 || open.newLines > 0) {
      hunks.push({
        oldStart: open.oldLines === 0 ? open.aBefore : open.aBefore + 1,
        oldLines: open.oldLines,
        newStart: open.newLines === 0 ? open.bBefore : open.bBefore + 1,
        newLines: open.newLines,
      });
    }
    open = undefined;
  };
  for (const chunk of dropEndOfFileLine(content)) {
    const common = (chunk.ab?.length ?? 0) + (chunk.skip ?? 0);
    const removed = chunk.a?.length ?? 0;
    const added = chunk.b?.length ?? 0;
    if (removed > 0 || added > 0) {
      open ??= { aBefore: aLine, bBefore: bLine, oldLines: 0, newLines: 0 };
      open.oldLines += removed;
      open.newLines += added;
      aLine += removed;
      bLine += added;
    }
    if (common > 0) {
      close();
      aLine += common;
      bLine += common;
    }
  }
  close();
  return hunks;
}

/** Lines on the new side of a DiffInfo, as git counts them (without the end-of-file artefact). */
function newSideLines(info: DiffInfo): number {
  let count = 0;
  let last: string | undefined;
  for (const chunk of info.content) {
    const lines = chunk.ab ?? chunk.b ?? [];
    count += lines.length + (chunk.skip ?? 0);
    if (lines.length > 0) last = lines[lines.length - 1];
    else if ((chunk.skip ?? 0) > 0) last = undefined;
  }
  // Skipped lines are not sent: when the file ends in them, assume the usual final newline.
  return last === '' || (last === undefined && count > 0) ? count - 1 : count;
}

/**
 * One file's DiffInfo → FileDiff. `path` is the key of the file list (the new path, or the old
 * path of a deleted file); `oldPath` comes from FileInfo `old_path` for renames and copies.
 *
 * A copy becomes an added file with one hunk over the whole file: that is what git shows with
 * rename (`-M`) but no copy detection, so both diff sources agree.
 */
export function toFileDiff(path: string, info: DiffInfo, oldPath?: string): FileDiff {
  let file: FileDiff;
  switch (info.change_type) {
    case 'ADDED':
      file = { oldPath: null, newPath: path, status: 'added', hunks: diffContentToHunks(info.content) };
      break;
    case 'DELETED':
      file = { oldPath: path, newPath: null, status: 'deleted', hunks: diffContentToHunks(info.content) };
      break;
    case 'RENAMED':
      file = {
        oldPath: oldPath ?? info.meta_a?.name ?? path,
        newPath: path,
        status: 'renamed',
        hunks: diffContentToHunks(info.content),
      };
      break;
    case 'COPIED': {
      const lines = newSideLines(info);
      const hunks = lines > 0 ? [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: lines }] : [];
      file = { oldPath: null, newPath: path, status: 'added', hunks };
      break;
    }
    default:
      file = { oldPath: path, newPath: path, status: 'modified', hunks: diffContentToHunks(info.content) };
  }
  if (info.binary === true && file.hunks.length === 0) file.binary = true;
  return file;
}
