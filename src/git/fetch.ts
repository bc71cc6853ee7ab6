import { DiagnosisError, describeError } from '../errors/index.ts';
import { type GitRunner, redactCredentials } from './runner.ts';

/** A revision to bring in from the remote, and the local ref that keeps it (and keeps gc off it). */
export interface FetchRequest {
  /** What the remote is asked for: a full ref name or a full sha. */
  source: string;
  /** Where it is stored here, under `refs/ci-diagnosis/`. */
  ref: string;
}

/**
 * Admits one network git operation (a clone or a fetch) when a slot is free. Fetches are a
 * resource of their own, apart from browser pages and model calls: every run of a busy hour
 * would otherwise open its own upload-pack on the same Gerrit at once. p-limit's limit is one.
 */
export type GitNetworkLimit = <T>(operation: () => Promise<T>) => Promise<T>;

/** Each operation runs as it comes: for one-off CLI runs, where there is nothing to share. */
export const unlimitedGit: GitNetworkLimit = (operation) => operation();

/** Brings revisions in from a repository's remote; a plain local repository has none. */
export interface RevisionFetcher {
  fetch(request: FetchRequest): Promise<void>;
  /** Updates branches and tags to the remote's current state. */
  refresh(): Promise<void>;
}

/**
 * Our own namespace: fetched change refs and shas live apart from the mirrored branches, so a
 * pruning refresh of `refs/heads/*` never drops them and they never shadow a branch.
 */
export const FETCHED_PREFIX = 'refs/ci-diagnosis/';

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The fetch that could bring `rev` here, or null when it cannot be fetched by name (short shas,
 * `HEAD~2`, branch short names: those must already be here). Gerrit serves patch sets as
 * `refs/changes/NN/CHANGE/PATCHSET` (https://gerrit-review.googlesource.com/Documentation/concept-refs-for-namespaces.html).
 */
export function fetchRequestFor(rev: string): FetchRequest | null {
  if (FULL_SHA.test(rev)) return { source: rev, ref: `${FETCHED_PREFIX}sha/${rev}` };
  if (rev.startsWith(FETCHED_PREFIX) || !isFullRefName(rev)) return null;
  return { source: rev, ref: `${FETCHED_PREFIX}${rev.slice('refs/'.length)}` };
}

/** The rules of `git check-ref-format` (https://git-scm.com/docs/git-check-ref-format) for `refs/…` names. */
export function isFullRefName(name: string): boolean {
  if (!name.startsWith('refs/') || name.endsWith('/') || name.endsWith('.')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are not allowed in ref names
  if (/[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{|\/\//.test(name)) return false;
  return name
    .slice('refs/'.length)
    .split('/')
    .every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** What git prints when the remote does not have (or will not serve) what was asked. */
const NOT_ON_REMOTE =
  /couldn't find remote ref|no such remote ref|not our ref|unadvertised object|invalid refspec/i;

/** Fetches from one remote (a URL or a local path) into a bare mirror. */
export class RemoteFetcher implements RevisionFetcher {
  constructor(
    private readonly runner: GitRunner,
    private readonly remote: string,
    private readonly limit: GitNetworkLimit = unlimitedGit,
  ) {}

  async fetch(request: FetchRequest): Promise<void> {
    const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--end-of-options', this.remote];
    try {
      await this.limit(() => this.runner.run([...args, `+${request.source}:${request.ref}`]));
    } catch (err: unknown) {
      if (!NOT_ON_REMOTE.test(describeError(err))) throw err;
      throw new DiagnosisError(
        'REVISION_NOT_FOUND',
        `revision ${request.source} is not on the remote ${redactCredentials(this.remote)}`,
        { input: request.source, cause: err },
      );
    }
  }

  async refresh(): Promise<void> {
    await this.limit(() =>
      this.runner.run([
        'fetch',
        '--quiet',
        '--prune',
        '--no-write-fetch-head',
        '--end-of-options',
        this.remote,
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ]),
    );
  }
}
