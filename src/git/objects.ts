import { existsSync, realpathSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { type BatchObject, CatFileBatch } from './cat-file.ts';
import { FETCHED_PREFIX, type FetchRequest, fetchRequestFor, type RevisionFetcher } from './fetch.ts';
import { LruCache } from './lru.ts';
import { GitRunner, type GitRunnerOptions } from './runner.ts';
import { requireRepoPath, requireRevision } from './safety.ts';
import type { CommitInfo, TreeEntry } from './schema.ts';
import { indexTree, parseLsTree, type TreeIndex } from './tree.ts';

export interface GitObjectsOptions extends GitRunnerOptions {
  /** Brings in revisions that are not here yet (a mirror's remote); absent for a local repository. */
  fetcher?: RevisionFetcher;
  /** Characters of file text kept in memory, across files (default 64 Mi). */
  blobCacheChars?: number;
  /** Trees whose listings are kept (default 8): the locator works on two or three revisions. */
  treeCacheSize?: number;
  /** Larger files are refused with FILE_TOO_LARGE rather than read (default 8 MiB). */
  maxFileBytes?: number;
}

const DEFAULTS = { blobCacheChars: 64 * 1024 * 1024, treeCacheSize: 8, maxFileBytes: 8 * 1024 * 1024 };
const NAME_CACHE_SIZE = 10_000;
const ABBREVIATED_SHA = /^[0-9a-f]{4,63}$/;

/**
 * Everything read from git objects at a revision, never from a working tree (which may be dirty
 * or absent). Reads go through one persistent `git cat-file --batch`; listings through
 * `git ls-tree`. Results are cached per instance: commit and tree data by their immutable ids,
 * file text by blob id in a bounded LRU, and revision names that cannot move (see `isStableName`).
 */
export class GitObjects {
  readonly gitDir: string;
  readonly runner: GitRunner;
  private readonly batch: CatFileBatch;
  private readonly fetcher: RevisionFetcher | undefined;
  private readonly maxFileBytes: number;
  private readonly names = new LruCache<string, string>({ maxEntries: NAME_CACHE_SIZE });
  private readonly commits = new LruCache<string, CommitInfo>({ maxEntries: NAME_CACHE_SIZE });
  private readonly trees: LruCache<string, Promise<TreeIndex>>;
  private readonly blobs: LruCache<string, string>;
  private readonly fetches = new Map<string, Promise<void>>();

  /** `gitDir` is a git directory: a bare repository, or the `.git` of a working copy. */
  constructor(gitDir: string, options: GitObjectsOptions = {}) {
    this.gitDir = gitDir;
    this.runner = new GitRunner(gitDir, options);
    this.batch = new CatFileBatch(gitDir, this.runner.env);
    this.fetcher = options.fetcher;
    this.maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
    this.trees = new LruCache({ maxEntries: options.treeCacheSize ?? DEFAULTS.treeCacheSize });
    this.blobs = new LruCache({
      maxEntries: Number.POSITIVE_INFINITY,
      maxWeight: options.blobCacheChars ?? DEFAULTS.blobCacheChars,
      weigh: (text) => text.length,
    });
  }

  /**
   * Opens an existing repository in place, without cloning: `path` is the root of a working copy
   * or a bare repository. Only its objects are read; its working tree is never looked at.
   */
  static async openLocal(
    path: string,
    options: Omit<GitObjectsOptions, 'fetcher'> = {},
  ): Promise<GitObjects> {
    const dir = resolvePath(path);
    if (!existsSync(dir)) throw new DiagnosisError('REPO_NOT_FOUND', `${dir} does not exist`, { input: dir });
    return new GitObjects(await findGitDir(new GitRunner(dir, options), dir), options);
  }

  /** The full sha of the commit `rev` names (a sha, ref or expression), or REVISION_NOT_FOUND. */
  async resolve(rev: string): Promise<string> {
    return (await this.commit(rev)).sha;
  }

  /** `resolve`, but a missing full sha or full ref is first fetched from the remote, when there is one. */
  async ensure(rev: string): Promise<string> {
    const here = await this.lookup(rev);
    if (here !== null) return here.sha;
    const request = fetchRequestFor(rev);
    if (request === null) throw notFound(rev, 'it cannot be fetched by name');
    const fetchedBefore = await this.lookup(request.ref);
    if (fetchedBefore !== null) return this.remember(rev, fetchedBefore).sha;
    if (this.fetcher === undefined) throw notFound(rev, 'this repository has no remote to fetch from');
    await this.fetchOnce(this.fetcher, request);
    const fetched = await this.lookup(request.ref);
    if (fetched === null) throw notFound(rev, 'not even after fetching it');
    return this.remember(rev, fetched).sha;
  }

  /** Updates branches and tags from the remote; a no-op for a local repository. */
  async refresh(): Promise<void> {
    await this.fetcher?.refresh();
  }

  async commit(rev: string): Promise<CommitInfo> {
    const found = await this.lookup(rev);
    if (found === null) throw notFound(rev, 'it is not in the repository');
    return found;
  }

  async parents(rev: string): Promise<string[]> {
    return [...(await this.commit(rev)).parents];
  }

  /** Every entry at `rev`: files, executables, symlinks and submodules, with their modes. */
  async listEntries(rev: string): Promise<readonly TreeEntry[]> {
    return (await this.tree(rev)).entries;
  }

  /**
   * Paths of the regular (and executable) files at `rev`, i.e. what `readFile` can read.
   * Symlinks and submodules are left out on purpose; `listEntries` has them.
   */
  async listFiles(rev: string): Promise<readonly string[]> {
    return (await this.tree(rev)).files;
  }

  /** The tree entry at `path`, or null; a path leaving the repository is PATH_REFUSED. */
  async entry(rev: string, path: string): Promise<TreeEntry | null> {
    const safe = requireRepoPath(path);
    return (await this.tree(rev)).byPath.get(safe) ?? null;
  }

  /** True when `readFile` would return text. */
  async exists(rev: string, path: string): Promise<boolean> {
    const found = await this.entry(rev, path);
    return found !== null && isReadable(found);
  }

  /**
   * The text of the file at `path` in `rev`, or null when there is none. Symlinks are refused
   * (PATH_REFUSED): their target may lie outside the repository, and following them would let a
   * hostile repository or report steer reads. So are submodules, which have no text here.
   */
  async readFile(rev: string, path: string): Promise<string | null> {
    const found = await this.entry(rev, path);
    if (found === null) return null;
    if (!isReadable(found)) {
      throw new DiagnosisError('PATH_REFUSED', `${found.path} is a ${found.kind}, not a file: not read`, {
        input: found.path,
      });
    }
    return this.readBlob(found);
  }

  /** Stops the object reader; further reads fail. */
  async close(): Promise<void> {
    await this.batch.close();
  }

  private async lookup(rev: string): Promise<CommitInfo | null> {
    requireRevision(rev);
    const sha = this.names.get(rev) ?? rev;
    return this.commits.get(sha) ?? this.readCommit(sha, rev);
  }

  /** Reads `<name>^{commit}`: peels tags, and gives the commit's tree and parents in one answer. */
  private async readCommit(name: string, rev: string): Promise<CommitInfo | null> {
    const object = await this.batch.get(`${name}^{commit}`);
    if (!object.found) {
      if (object.reason === 'ambiguous') throw notFound(rev, 'it is an ambiguous abbreviation');
      return null;
    }
    return this.remember(rev, parseCommit(object));
  }

  private remember(rev: string, commit: CommitInfo): CommitInfo {
    this.commits.set(commit.sha, commit);
    if (rev !== commit.sha && isStableName(rev)) this.names.set(rev, commit.sha);
    return commit;
  }

  private async tree(rev: string): Promise<TreeIndex> {
    const { tree } = await this.commit(rev);
    let listing = this.trees.get(tree);
    if (listing === undefined) {
      listing = this.listTree(tree);
      this.trees.set(tree, listing);
      // A failed listing must not stay cached; the failure still reaches the caller.
      listing.catch(() => this.trees.delete(tree));
    }
    return listing;
  }

  private async listTree(tree: string): Promise<TreeIndex> {
    return indexTree(parseLsTree(await this.runner.run(['ls-tree', '-r', '-z', '--full-tree', tree])));
  }

  private async readBlob(entry: TreeEntry): Promise<string> {
    const cached = this.blobs.get(entry.oid);
    if (cached !== undefined) return cached;
    const object = await this.batch.get(entry.oid, this.maxFileBytes);
    if (!object.found || object.type !== 'blob') {
      throw new DiagnosisError(
        'GIT_ERROR',
        `blob ${entry.oid} of ${entry.path} is missing from ${this.gitDir}`,
        {
          input: entry.path,
        },
      );
    }
    if (object.content === null) {
      throw new DiagnosisError(
        'FILE_TOO_LARGE',
        `${entry.path} has ${object.size} bytes, more than the ${this.maxFileBytes} read at most`,
        { input: entry.path },
      );
    }
    const text = object.content.toString('utf8');
    this.blobs.set(entry.oid, text);
    return text;
  }

  /** One fetch per request at a time: concurrent `ensure` calls for one revision share it. */
  private fetchOnce(fetcher: RevisionFetcher, request: FetchRequest): Promise<void> {
    let running = this.fetches.get(request.ref);
    if (running === undefined) {
      running = fetcher.fetch(request).finally(() => this.fetches.delete(request.ref));
      this.fetches.set(request.ref, running);
    }
    return running;
  }
}

/**
 * Names that keep pointing at the same commit, so caching what they resolve to is safe:
 * abbreviated shas, Gerrit patch-set refs (never rewritten) and our fetched refs. Branches,
 * `HEAD` and expressions such as `HEAD~1` are looked up afresh each time (a few microseconds).
 */
function isStableName(rev: string): boolean {
  return ABBREVIATED_SHA.test(rev) || rev.startsWith('refs/changes/') || rev.startsWith(FETCHED_PREFIX);
}

function isReadable(entry: TreeEntry): boolean {
  return entry.kind === 'file' || entry.kind === 'executable';
}

function notFound(rev: string, why: string): DiagnosisError {
  return new DiagnosisError('REVISION_NOT_FOUND', `revision ${rev} not found: ${why}`, { input: rev });
}

/** The header of a commit object (https://git-scm.com/docs/signature-format#_commit_signatures shows its layout). */
function parseCommit(object: Extract<BatchObject, { found: true }>): CommitInfo {
  const text = (object.content ?? Buffer.alloc(0)).toString('utf8');
  const end = text.indexOf('\n\n');
  const header = end < 0 ? text : text.slice(0, end);
  let tree: string | undefined;
  const parents: string[] = [];
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
  }
  if (object.type !== 'commit' || tree === undefined) {
    throw new DiagnosisError('GIT_ERROR', `object ${object.oid} is not a readable commit`, {
      input: object.oid,
    });
  }
  return { sha: object.oid, tree, parents, message: end < 0 ? '' : text.slice(end + 2) };
}

/**
 * The git directory of the repository rooted at `dir`. A directory merely *inside* a repository
 * is refused: git would otherwise walk up and silently open whatever repository encloses it.
 */
async function findGitDir(runner: GitRunner, dir: string): Promise<string> {
  try {
    const [gitDir, bare] = (await runner.run(['rev-parse', '--absolute-git-dir', '--is-bare-repository']))
      .trim()
      .split('\n');
    if (gitDir === undefined) throw new Error('git printed no git directory');
    const root = bare === 'true' ? gitDir : (await runner.run(['rev-parse', '--show-toplevel'])).trim();
    const here = realpathSync(dir);
    if (here !== realpathSync(root) && here !== realpathSync(gitDir)) {
      throw new Error(`it lies inside the repository at ${root}; give the repository's root`);
    }
    return gitDir;
  } catch (err: unknown) {
    throw new DiagnosisError('REPO_NOT_FOUND', `${dir} is not a git repository: ${describeError(err)}`, {
      input: dir,
      cause: err,
    });
  }
}
