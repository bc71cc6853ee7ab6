import { GitDiffSource, GitObjects } from '../git/index.ts';
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

/** Everything a locator needs for one local repository (read from git objects, never a work tree). */
export async function openLocatorDeps(
  repoPath: string,
  options: { rulesPath?: string } = {},
): Promise<LocatorDeps & { close(): Promise<void> }> {
  const objects = await GitObjects.openLocal(repoPath);
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
      await objects.close();
    },
  };
}
