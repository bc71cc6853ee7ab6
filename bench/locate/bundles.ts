/**
 * `npm run bench:locate -- --make-bundles`: for each configured mirror, a git bundle of its
 * default branch in var/bench/bundles/<name>.bundle and a bare clone of it in
 * var/bench/repos/<name>.git, which the bench then prefers (one branch, few refs). Copy the
 * bundles to another machine: the bench clones any bundle it finds there on start.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BUNDLE_DIR, CLONE_DIR, type RepoConfig } from './config.ts';

const exec = promisify(execFile);

export async function makeBundles(repos: readonly RepoConfig[]): Promise<void> {
  mkdirSync(BUNDLE_DIR, { recursive: true });
  for (const repo of repos) {
    if (repo.path !== undefined) continue;
    const bundle = join(BUNDLE_DIR, `${repo.name}.bundle`);
    if (repo.mirror === undefined || !existsSync(repo.mirror)) {
      console.log(
        `note: ${repo.name}: no mirror at ${repo.mirror ?? '(none configured)'} — bring ${repo.source ?? 'it'} first`,
      );
      continue;
    }
    const branch = (
      await exec('git', ['--git-dir', repo.mirror, 'symbolic-ref', '--short', 'HEAD'])
    ).stdout.trim();
    try {
      await exec('git', ['--git-dir', repo.mirror, 'bundle', 'create', '--quiet', bundle, 'HEAD', branch], {
        maxBuffer: 1 << 26,
      });
    } catch (err: unknown) {
      // A mirror lacking some blobs (the fetch tool may leave out the largest files) cannot be bundled.
      const why = String((err as { stderr?: string }).stderr ?? err)
        .trim()
        .split('\n')[0];
      console.log(`note: ${repo.name}: no bundle (${why}); the mirror stays in use`);
      rmSync(bundle, { force: true });
      continue;
    }
    console.log(`${repo.name}: ${bundle} (${(statSync(bundle).size / 1e6).toFixed(1)} MB, ${branch})`);
  }
  await cloneBundles(repos);
}

/** Bare clones of the bundles present, for entries that have no clone yet. */
export async function cloneBundles(repos: readonly RepoConfig[]): Promise<void> {
  mkdirSync(CLONE_DIR, { recursive: true });
  for (const repo of repos) {
    const bundle = join(BUNDLE_DIR, `${repo.name}.bundle`);
    const clone = join(CLONE_DIR, `${repo.name}.git`);
    if (repo.path !== undefined || !existsSync(bundle) || existsSync(clone)) continue;
    await exec('git', ['clone', '--quiet', '--bare', bundle, clone], { maxBuffer: 1 << 26 });
    console.log(`${repo.name}: cloned ${bundle} → ${clone}`);
  }
}
