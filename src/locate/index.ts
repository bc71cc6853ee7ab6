import { GitDiffSource, type GitNetworkLimit, GitObjects, RepoCache } from '../git/index.ts';
import { createCodeParser } from './anchor/index.ts';
import type { LocatorDeps } from './locator.ts';
import { loadPathRules } from './rules.ts';

export { candidateBlock } from './candidate.ts';
export { locateDocument, MAX_FRAMES_PER_ISSUE } from './document.ts';
export { carryOver } from './drift.ts';
export { diffImpact } from './impact.ts';
export { createLocator, type LocateTarget, type Locator, type LocatorDeps } from './locator.ts';
export { type FileIndex, indexFiles, mapReportPath, type PathMapping } from './paths.ts';
export { compileRules, loadPathRules, type PathRules } from './rules.ts';

export const DEFAULT_RULES_PATH = new URL('../../config/path-mapping.json', import.meta.url).pathname;

/** A remote a mirror can be cloned from, rather than a local repository path. */
export function isRemote(repo: string): boolean {
  return /^(https?|ssh|git|file):\/\//.test(repo) || /^[\w.-]+@[\w.-]+:/.test(repo);
}

/**
 * Everything a locator needs for one repository, read from git objects, never a work tree: a
 * local path is opened in place; a remote is kept as a bare mirror in `cacheDir` (one per
 * project), and revisions or Gerrit change refs it lacks are fetched on demand.
 */
export async function openLocatorDeps(
  repo: string,
  options: { rulesPath?: string; cacheDir?: string; project?: string; gitLimit?: GitNetworkLimit } = {},
): Promise<LocatorDeps & { close(): Promise<void> }> {
  const cache = isRemote(repo)
    ? new RepoCache({ dir: options.cacheDir ?? 'var/repos', networkLimit: options.gitLimit })
    : null;
  const objects = cache
    ? await cache.open(options.project ?? projectOf(repo), repo)
    : await GitObjects.openLocal(repo);
  const [parser, rules] = await Promise.all([
    createCodeParser(),
    loadPathRules(options.rulesPath ?? DEFAULT_RULES_PATH),
  ]);
  return {
    objects,
    diffs: new GitDiffSource(objects),
    parser,
    rules,
    close: async () => {
      parser.dispose();
      await (cache ? cache.close() : objects.close());
    },
  };
}

/** `https://host/a/shop/order-service.git` → `shop/order-service`. */
function projectOf(remote: string): string {
  const path = remote.replace(/^[\w+.-]+:\/\/[^/]+\//, '').replace(/^[\w.-]+@[\w.-]+:/, '');
  return (
    path
      .replace(/^a\//, '')
      .replace(/\.git$/, '')
      .replace(/\/+$/, '') || 'default'
  );
}
