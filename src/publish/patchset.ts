import type { GerritClient } from '../gerrit/index.ts';
import { GerritError, isMagicPath } from '../gerrit/index.ts';
import type { DiffSource, GitObjects } from '../git/index.ts';

/**
 * What the review builder needs to know about the patchset it comments on. Gerrit accepts
 * comments only on files of the patchset (those it lists against the parent), and a line or a
 * fix range only inside the file's text at the revision.
 */
export interface PatchsetView {
  /** Paths of files the patchset adds or modifies (deleted and magic files excluded). */
  files(): Promise<ReadonlySet<string>>;
  /** A file's text at the revision, or null when it does not exist there. */
  text(path: string): Promise<string | null>;
}

/** The patchset as Gerrit serves it: what posting will be checked against. */
export function gerritPatchset(client: GerritClient, changeId: string, revision: string): PatchsetView {
  return {
    files: async () => {
      const files = await client.listFiles(changeId, revision);
      const kept = Object.entries(files).filter(([path, info]) => !isMagicPath(path) && info.status !== 'D');
      return new Set(kept.map(([path]) => path));
    },
    text: async (path) => {
      try {
        return await client.getFileContent(changeId, revision, path);
      } catch (err: unknown) {
        if (err instanceof GerritError && err.code === 'GERRIT_NOT_FOUND') return null;
        throw err;
      }
    },
  };
}

/** The same view from git, for dry runs without a Gerrit: the revision against its first parent. */
export function gitPatchset(objects: GitObjects, diffs: DiffSource, revision: string): PatchsetView {
  return {
    files: async () => {
      const [parent] = await objects.parents(revision);
      if (parent === undefined) return new Set(await objects.listFiles(revision));
      const changed = await diffs.diff(parent, revision);
      return new Set(changed.flatMap((f) => (f.newPath === null ? [] : [f.newPath])));
    },
    text: (path) => objects.readFile(revision, path),
  };
}
