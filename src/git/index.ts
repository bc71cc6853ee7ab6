export { type BatchObject, CatFileBatch } from './cat-file.ts';
export { type DiffSource, GitDiffSource, type GitDiffSourceOptions } from './diff.ts';
export { combineDiff, parseRawDiff, type RawChange } from './diff-parse.ts';
export {
  FETCHED_PREFIX,
  type FetchRequest,
  fetchRequestFor,
  type GitNetworkLimit,
  isFullRefName,
  RemoteFetcher,
  type RevisionFetcher,
  unlimitedGit,
} from './fetch.ts';
export { LruCache, type LruOptions } from './lru.ts';
export { type MappedLine, mapLine } from './map-line.ts';
export { GitObjects, type GitObjectsOptions } from './objects.ts';
export { RepoCache, type RepoCacheOptions } from './repo-cache.ts';
export { GitRunner, type GitRunnerOptions, gitEnv, redactCredentials } from './runner.ts';
export { requireRepoPath, requireRevision, safeRepoPath } from './safety.ts';
export * from './schema.ts';
export { indexTree, parseLsTree, type TreeIndex } from './tree.ts';
