import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { type GitNetworkLimit, RemoteFetcher, unlimitedGit } from './fetch.ts';
import { GitObjects, type GitObjectsOptions } from './objects.ts';
import { GitRunner, redactCredentials } from './runner.ts';

export interface RepoCacheOptions extends Omit<GitObjectsOptions, 'fetcher'> {
  /** Folder holding one bare mirror per project (`<project, URI-encoded>.git`). */
  dir: string;
  /** Admits clones and fetches; share one across caches to bound them process-wide. Default: none. */
  networkLimit?: GitNetworkLimit;
}

/** What git prints when the remote repository itself is not there. */
const REPO_MISSING =
  /not found|does not appear to be a git repository|does not exist|no such file or directory/i;

/**
 * A local cache of bare mirrors, one per project. A mirror is cloned on first use and then only
 * grows on demand (`GitObjects.ensure` fetches a missing patch-set ref or sha), so a diagnosis
 * never waits for a full update. `clone --bare` rather than `--mirror`: a Gerrit server
 * advertises every `refs/changes/*`, which a mirror would copy wholesale.
 */
export class RepoCache {
  private readonly dir: string;
  private readonly options: Omit<GitObjectsOptions, 'fetcher'>;
  private readonly limit: GitNetworkLimit;
  private readonly opened = new Map<string, { remote: string; objects: Promise<GitObjects> }>();

  constructor(options: RepoCacheOptions) {
    const { dir, networkLimit, ...rest } = options;
    this.dir = resolvePath(dir);
    this.options = rest;
    this.limit = networkLimit ?? unlimitedGit;
  }

  /** Where `project`'s mirror lives. The name is URI-encoded, so `a/../b` stays one folder name. */
  mirrorPath(project: string): string {
    if (project.length === 0 || /[\0\n\r]/.test(project)) {
      throw new DiagnosisError('INVALID_ARGUMENT', `"${project}" is not a project name`, { input: project });
    }
    return join(this.dir, `${encodeURIComponent(project)}.git`);
  }

  /** The objects of `project`, cloned from `remote` (a URL or a local path) the first time. */
  open(project: string, remote: string): Promise<GitObjects> {
    const known = this.opened.get(project);
    if (known !== undefined) {
      if (known.remote === remote) return known.objects;
      const err = new DiagnosisError(
        'INVALID_ARGUMENT',
        `project ${project} is already open with another remote`,
        {
          input: project,
        },
      );
      return Promise.reject(err);
    }
    const objects = this.openMirror(project, remote);
    this.opened.set(project, { remote, objects });
    // Forget a failed open so the next call retries; the caller still gets the failure.
    objects.catch(() => this.opened.delete(project));
    return objects;
  }

  /** Closes every repository this cache opened. */
  async close(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    const settled = await Promise.allSettled(all.map(async (entry) => (await entry.objects).close()));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  private async openMirror(project: string, remote: string): Promise<GitObjects> {
    requireRemote(remote);
    const path = this.mirrorPath(project);
    if (!existsSync(path)) await this.clone(remote, path);
    const runner = new GitRunner(path, this.options);
    const bare = (await runner.run(['rev-parse', '--is-bare-repository'])).trim();
    if (bare !== 'true') {
      throw new DiagnosisError('GIT_ERROR', `${path} is not a bare repository; remove it to re-clone`, {
        input: path,
      });
    }
    return new GitObjects(path, { ...this.options, fetcher: new RemoteFetcher(runner, remote, this.limit) });
  }

  /**
   * Clones into a temporary folder and renames it into place, so a crash never leaves a
   * half-cloned mirror behind and two processes cloning at once both end with a whole one.
   */
  private async clone(remote: string, path: string): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const temporary = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await this.limit(() =>
        new GitRunner(this.dir, this.options).run(['clone', '--bare', '--quiet', '--', remote, temporary]),
      );
    } catch (err: unknown) {
      rmSync(temporary, { recursive: true, force: true });
      const missing = REPO_MISSING.test(describeError(err));
      throw new DiagnosisError(
        missing ? 'REPO_NOT_FOUND' : 'GIT_ERROR',
        `could not clone ${redactCredentials(remote)}: ${describeError(err)}`,
        { input: redactCredentials(remote), cause: err },
      );
    }
    try {
      renameSync(temporary, path);
    } catch (err: unknown) {
      rmSync(temporary, { recursive: true, force: true });
      // Another process finished its clone first: use that one.
      if (!existsSync(path)) throw err;
    }
  }
}

/** A remote is a URL or a path; a leading dash would be read as an option. */
function requireRemote(remote: string): string {
  if (remote.length === 0 || remote.startsWith('-') || /[\0\n\r]/.test(remote)) {
    throw new DiagnosisError('INVALID_ARGUMENT', `"${redactCredentials(remote)}" is not a git remote`, {
      input: redactCredentials(remote),
    });
  }
  return remote;
}
