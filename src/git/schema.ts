import { z } from 'zod';

/**
 * One hunk as a unified diff header prints it (`@@ -oldStart,oldLines +newStart,newLines @@`),
 * 1-based. A count of 0 means a pure insertion (old side) or pure deletion (new side); the start
 * is then the line *after which* the change sits, so it may be 0 (top of the file). See
 * https://git-scm.com/docs/diff-format ("combined diff format" shares the unified header rules)
 * and GNU diff's unified format. Gerrit's DiffInfo `content` chunks map onto the same shape.
 */
export const Hunk = z.object({
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
});
export type Hunk = z.infer<typeof Hunk>;

export const FileStatus = z.enum(['added', 'deleted', 'modified', 'renamed']);
export type FileStatus = z.infer<typeof FileStatus>;

/**
 * One file's change between two revisions, independent of where the diff came from (git here,
 * Gerrit's DiffInfo later). Paths are repository-relative and posix.
 */
export const FileDiff = z.object({
  /** Path at the base revision; null when the file was added. */
  oldPath: z.string().nullable(),
  /** Path at the target revision; null when the file was deleted. */
  newPath: z.string().nullable(),
  status: FileStatus,
  /** Exact hunks (no context lines), in file order. */
  hunks: z.array(Hunk),
  /**
   * True when the content changed but no line hunks are known (binary content). `hunks` is
   * then empty, which must not be read as "unchanged".
   */
  binary: z.boolean().optional(),
});
export type FileDiff = z.infer<typeof FileDiff>;

/** What a tree entry is, from its git mode (https://git-scm.com/docs/git-fast-import#_filemodify). */
export const EntryKind = z.enum(['file', 'executable', 'symlink', 'submodule']);
export type EntryKind = z.infer<typeof EntryKind>;

/** One line of `git ls-tree -r -z`: `<mode> SP <type> SP <oid> TAB <path> NUL`. */
export const TreeEntry = z.object({
  path: z.string().min(1),
  mode: z.string().regex(/^[0-7]{6}$/),
  kind: EntryKind,
  /** Blob id (or, for a submodule, the commit it points at). */
  oid: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/),
});
export type TreeEntry = z.infer<typeof TreeEntry>;

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  /** The commit message (subject, body, trailers) as written. */
  message: string;
}
