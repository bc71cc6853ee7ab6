import { safeRepoPath } from '../git/index.ts';
import type { PathCandidate } from '../schemas/index.ts';
import type { PathRules } from './rules.ts';

/** The files at one revision, indexed for mapping report paths. */
export interface FileIndex {
  files: ReadonlySet<string>;
  byBasename: ReadonlyMap<string, readonly string[]>;
}

export function indexFiles(paths: readonly string[]): FileIndex {
  const byBasename = new Map<string, string[]>();
  for (const path of paths) {
    const base = basename(path);
    const list = byBasename.get(base);
    if (list) list.push(path);
    else byBasename.set(base, [path]);
  }
  return { files: new Set(paths), byBasename };
}

export interface PathMapping {
  /** The one best path, or null when none exists or the best are tied (see `tied`). */
  file: string | null;
  /** Every existing path that could be meant, best first. */
  candidates: PathCandidate[];
  /** Paths sharing the best score: an ambiguity the caller may resolve with code evidence. */
  tied: string[];
  reasons: string[];
}

const SCORE = { asReported: 1, stripped: 0.95, sourceRoot: 0.9, fullSuffix: 0.9, buildOutput: 0.4 } as const;
const MAX_CANDIDATES = 5;

/**
 * Maps a path as a build machine printed it to paths that exist in the repository at the
 * revision. Report paths are hostile input: every candidate goes through `safeRepoPath`, so
 * nothing outside the repository is ever named.
 */
export function mapReportPath(reported: string, index: FileIndex, rules: PathRules): PathMapping {
  const found = new Map<string, PathCandidate>();
  const reasons: string[] = [];
  const add = (path: string, via: string, score: number): void => {
    const safe = safeRepoPath(path);
    if (safe === null || !index.files.has(safe)) return;
    const seen = found.get(safe);
    if (!seen || seen.score < score) found.set(safe, { file: safe, via, score });
  };
  const cleaned = reported.replace(/^(\.\/)+/, '');
  if (!cleaned.startsWith('/') && safeRepoPath(cleaned) === null) {
    reasons.push(`reported path "${reported}" leaves the repository: refused`);
  }
  for (const rest of [cleaned, ...strippedForms(cleaned, rules, add)]) {
    if (rest === cleaned && !rest.startsWith('/')) add(rest, 'as reported', SCORE.asReported);
    for (const root of rules.sourceRoots) add(`${root}/${rest}`, `source root ${root}`, SCORE.sourceRoot);
    for (const rule of rules.buildOutputs) {
      if (rule.from.test(rest))
        add(rest.replace(rule.from, rule.to), 'build output → source (a guess)', SCORE.buildOutput);
    }
  }
  addSuffixMatches(cleaned, index, add);
  return rank(reported, [...found.values()], reasons);
}

/** Each configured workspace prefix that matches, stripped; stripped forms score just below exact. */
function strippedForms(
  path: string,
  rules: PathRules,
  add: (p: string, via: string, s: number) => void,
): string[] {
  const forms: string[] = [];
  for (const prefix of rules.stripPrefixes) {
    if (!prefix.test(path)) continue;
    const rest = path.replace(prefix, '');
    forms.push(rest);
    add(rest, `workspace prefix ${prefix.source} stripped`, SCORE.stripped);
  }
  return forms;
}

/**
 * Repository files with the same name, scored by how many trailing path segments agree: an
 * unknown absolute prefix (another machine's checkout) still maps when the tail is unique.
 */
function addSuffixMatches(
  path: string,
  index: FileIndex,
  add: (p: string, via: string, s: number) => void,
): void {
  const segments = path.split('/').filter((s) => s !== '');
  for (const candidate of index.byBasename.get(basename(path)) ?? []) {
    const theirs = candidate.split('/');
    let k = 0;
    while (
      k < segments.length &&
      k < theirs.length &&
      segments[segments.length - 1 - k] === theirs[theirs.length - 1 - k]
    )
      k++;
    const whole = k === theirs.length;
    const score = whole ? SCORE.fullSuffix : 0.5 + 0.08 * Math.min(k, 5);
    add(candidate, `last ${k} path segment${k === 1 ? '' : 's'} agree`, score);
  }
}

function rank(reported: string, candidates: PathCandidate[], reasons: string[]): PathMapping {
  const sorted = candidates
    .sort((a, b) => b.score - a.score || (a.file < b.file ? -1 : 1))
    .slice(0, MAX_CANDIDATES);
  const best = sorted[0];
  if (best === undefined) {
    return {
      file: null,
      candidates: [],
      tied: [],
      reasons: [...reasons, `no file at the revision matches "${reported}"`],
    };
  }
  const tied = sorted.filter((c) => c.score === best.score).map((c) => c.file);
  if (tied.length > 1) {
    reasons.push(`"${reported}" matches ${tied.length} files equally well: ${tied.join(', ')}`);
    return { file: null, candidates: sorted, tied, reasons };
  }
  reasons.push(`path "${reported}" → ${best.file} (${best.via})`);
  return { file: best.file, candidates: sorted, tied: [], reasons };
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
