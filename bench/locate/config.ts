/** bench/locate/repos.json: which repositories the locator benchmark samples, and how. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

const Sampling = z.object({
  /** Commit pairs (old, new) per repository. */
  pairs: z.number().int().positive(),
  /** Sampled lines per pair. */
  samples: z.number().int().positive(),
  /** `new` is this many first-parent commits after `old` (inclusive range). */
  minGap: z.number().int().positive(),
  maxGap: z.number().int().positive(),
  /** Only the newest `window` first-parent commits are used (recent code, as CI sees it). */
  window: z.number().int().positive(),
});

const RepoEntry = z.object({
  name: z.string().regex(/^[\w.-]+$/),
  /** Where it came from (documentation; `github:owner/name` is what the fetch tool takes). */
  source: z.string().optional(),
  /** A repository path (work tree or bare), relative to the project root. Wins when present. */
  path: z.string().optional(),
  /** A bare mirror brought by the fetch tool; used when no local bundle clone exists. */
  mirror: z.string().optional(),
  language: z.enum(['java', 'python', 'typescript', 'javascript', 'go']),
  include: z.array(z.string()).min(1),
  exclude: z.array(z.string()).default([]),
  sampling: Sampling.partial().default({}),
});
export type RepoEntry = z.infer<typeof RepoEntry>;

const ConfigFile = z.object({
  seed: z.string(),
  defaults: Sampling,
  repos: z.array(RepoEntry),
});

export interface RepoConfig extends Omit<RepoEntry, 'sampling'> {
  sampling: z.infer<typeof Sampling>;
  matches: (path: string) => boolean;
}

export interface BenchConfig {
  seed: string;
  repos: RepoConfig[];
}

export function loadConfig(path: string): BenchConfig {
  const parsed = ConfigFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  return {
    seed: parsed.seed,
    repos: parsed.repos.map((r) => {
      const include = r.include.map(globToRegExp);
      const exclude = r.exclude.map(globToRegExp);
      return {
        ...r,
        sampling: { ...parsed.defaults, ...r.sampling },
        matches: (p: string) => include.some((g) => g.test(p)) && !exclude.some((g) => g.test(p)),
      };
    }),
  };
}

export const BUNDLE_DIR = resolve('var/bench/bundles');
export const CLONE_DIR = resolve('var/bench/repos');

/**
 * The repository to read, in order: `path`; a clone of a bundle under var/bench/repos; the
 * mirror; else null (the caller prints a note and skips the entry).
 */
export function repoLocation(repo: RepoEntry): { path: string; via: string } | null {
  if (repo.path !== undefined) {
    const p = resolve(repo.path);
    return existsSync(p) ? { path: p, via: 'path' } : null;
  }
  const clone = resolve(CLONE_DIR, `${repo.name}.git`);
  if (existsSync(clone)) return { path: clone, via: 'bundle clone' };
  if (repo.mirror !== undefined && existsSync(repo.mirror)) return { path: repo.mirror, via: 'mirror' };
  return null;
}

/** `**` any depth, `*` within a segment, `?` one character, `{a,b}` alternatives. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && glob[i + 1] === '*') {
      i++;
      if (glob[i + 1] === '/') {
        i++;
        out += '(?:.*/)?';
      } else out += '.*';
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      out += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map((s) => s.replace(/[.+^$()|[\]\\]/g, '\\$&'))
        .join('|')})`;
      i = end;
    } else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
