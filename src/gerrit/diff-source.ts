import pLimit from 'p-limit';
import type { DiffSource } from '../git/diff.ts';
import type { FileDiff } from '../git/schema.ts';
import type { GerritClient } from './client.ts';
import { isMagicPath, toFileDiff } from './utils.ts';

export interface GerritDiffSourceOptions {
  /** Diff requests in flight at once. */
  concurrency?: number;
}

/**
 * `DiffSource` from Gerrit's own diff of one change, so diff impact uses exactly the lines
 * reviewers see. `target` is a revision of the change (sha or patchset number); `base` is
 * either the parent commit of `target` (Gerrit's default comparison) or another patchset of the
 * same change, passed as Gerrit's `base` parameter.
 */
export class GerritDiffSource implements DiffSource {
  constructor(
    private readonly client: GerritClient,
    private readonly changeId: string,
    private readonly options: GerritDiffSourceOptions = {},
  ) {}

  async diff(base: string, target: string): Promise<FileDiff[]> {
    const commit = await this.client.getCommit(this.changeId, target);
    const againstParent = commit.parents.some((p) => p.commit === base);
    const query = againstParent ? {} : { base };
    const files = await this.client.listFiles(this.changeId, target, query);
    const limit = pLimit(this.options.concurrency ?? 4);
    const paths = Object.keys(files)
      .filter((path) => !isMagicPath(path))
      .sort();
    return Promise.all(
      paths.map((path) =>
        limit(async () => {
          const info = await this.client.getDiff(this.changeId, target, path, query);
          return toFileDiff(path, info, files[path]?.old_path);
        }),
      ),
    );
  }
}
