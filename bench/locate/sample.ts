/**
 * Sampling and ground truth for the locator benchmark. For each repository: K commit pairs
 * (old, new) on the first-parent history, and at `old` M lines of source files — a quarter
 * next to a hunk of old..new, a quarter elsewhere in a file the pair touched, half in files it
 * did not touch — each with git's own answer to "where is this line at new?":
 * `git blame --reverse --first-parent old..new` (the last commit in which the line existed and
 * its number there; if that commit is `new`, the line survives there, otherwise it is gone).
 * Deterministic for a seed and a HEAD; cached on disk under var/bench/locate/.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RepoConfig } from './config.ts';
import { BlobReader, git, splitLines } from './git.ts';
import { Rng } from './rng.ts';

/** Bump when sampling or truth rules change: invalidates the cache. */
const SAMPLER_VERSION = 5;
const NEAR_HUNK = 3;
const MAX_TOUCHED_FILES_READ = 40;
const MAX_FILE_BYTES = 1_000_000;
export const WORKSPACE = '/home/jenkins/workspace/';

export interface Pair {
  old: string;
  new: string;
  /** First-parent commits from old to new. */
  gap: number;
  /** First parent of new: the "change under review" base for diff impact. */
  diffBase: string;
  touchedFiles: number;
}

export type Stratum = 'hunk' | 'file' | 'untouched';
export type PathStyle = 'repo' | 'workspace' | 'package';

export interface LineAt {
  path: string;
  line: number;
}

export interface Sample {
  pair: number;
  /** Path and line at old. */
  path: string;
  line: number;
  text: string;
  stratum: Stratum;
  style: PathStyle;
  /** The path as the frame gives it. */
  reportedFile: string;
  /** The file's path at new (renames followed), null when the pair deleted it. */
  newPath: string | null;
  /** At new, or null when git says the line is gone. */
  truth: LineAt | null;
  /** Same with `blame -w -M` (whitespace-only edits and moves within a file forgiven); diagnostic only. */
  lenientTruth: LineAt | null;
}

export interface SampleSet {
  key: string;
  repo: string;
  head: string;
  pairs: Pair[];
  samples: Sample[];
  /** Pairs drawn but not used because a diff of theirs cannot be read (objects missing in a mirror). */
  unreadablePairs: number;
  seconds: number;
}

export function cachePath(repo: RepoConfig): string {
  return join('var/bench/locate/truth', `${repo.name}.json`);
}

export async function loadOrSample(
  repo: RepoConfig,
  gitDir: string,
  seed: string,
): Promise<SampleSet & { cached: boolean }> {
  const head = (await git(gitDir, ['rev-parse', 'HEAD'])).trim();
  const key = createHash('sha256')
    .update(JSON.stringify([SAMPLER_VERSION, seed, head, repo.sampling, repo.include, repo.exclude]))
    .digest('hex')
    .slice(0, 16);
  const file = cachePath(repo);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as SampleSet;
    if (cached.key === key) return { ...cached, cached: true };
  }
  const started = performance.now();
  const set = await sample(repo, gitDir, seed, head, key);
  set.seconds = (performance.now() - started) / 1000;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(set)}\n`);
  return { ...set, cached: false };
}

async function sample(
  repo: RepoConfig,
  gitDir: string,
  seed: string,
  head: string,
  key: string,
): Promise<SampleSet> {
  const rng = new Rng(`${seed}:${repo.name}`);
  const { pairs: wanted, samples: perPair, minGap, maxGap, window } = repo.sampling;
  const history = splitLines(
    await git(gitDir, ['rev-list', '--first-parent', `--max-count=${window + 1}`, head]),
  )
    .reverse()
    .filter((s) => s !== '');
  const blobs = new BlobReader(gitDir);
  const pairs: Pair[] = [];
  const samples: Sample[] = [];
  const seen = new Set<string>();
  let unreadablePairs = 0;
  try {
    for (let attempt = 0; pairs.length < wanted && attempt < wanted * 20; attempt++) {
      if (history.length <= minGap) break;
      const oldIndex = rng.int(0, history.length - 1 - minGap);
      const gap = rng.int(minGap, Math.min(maxGap, history.length - 1 - oldIndex));
      const old = history[oldIndex] as string;
      const neu = history[oldIndex + gap] as string;
      if (seen.has(`${old}..${neu}`)) continue;
      seen.add(`${old}..${neu}`);
      const diffBase = (await git(gitDir, ['rev-parse', `${neu}^1`])).trim();
      if (!(await readable(gitDir, old, neu)) || !(await readable(gitDir, diffBase, neu))) {
        unreadablePairs++;
        continue;
      }
      const picked = await samplePair(repo, gitDir, blobs, rng, old, neu, perPair, pairs.length);
      if (picked === null) continue;
      pairs.push({ old, new: neu, gap, diffBase, touchedFiles: picked.touched });
      samples.push(...picked.samples);
    }
  } finally {
    blobs.close();
  }
  return { key, repo: repo.name, head, pairs, samples, unreadablePairs, seconds: 0 };
}

/**
 * Whether the whole diff base..target can be read. Mirrors brought by the session's fetch tool
 * may lack their largest blobs (a vendored tarball); a complete repository always passes.
 */
async function readable(gitDir: string, base: string, target: string): Promise<boolean> {
  try {
    await git(gitDir, ['diff', '--numstat', '-M', base, target]);
    return true;
  } catch {
    return false;
  }
}

interface Changes {
  /** Old path → new path (same when modified in place), null when deleted. */
  touched: Map<string, string | null>;
  /** Old-side changed ranges per old path (insertions as the line they follow). */
  hunks: Map<string, Array<[number, number]>>;
}

async function changes(gitDir: string, old: string, neu: string, repo: RepoConfig): Promise<Changes> {
  const touched = new Map<string, string | null>();
  const fields = (await git(gitDir, ['diff', '-M', '--name-status', '-z', old, neu])).split('\0');
  for (let i = 0; i < fields.length - 1; ) {
    const status = fields[i++] as string;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = fields[i++] as string;
      const to = fields[i++] as string;
      if (status.startsWith('R') && repo.matches(from)) touched.set(from, to);
    } else {
      const path = fields[i++] as string;
      if (!repo.matches(path)) continue;
      if (status === 'D') touched.set(path, null);
      else if (status !== 'A') touched.set(path, path);
    }
  }
  const hunks = new Map<string, Array<[number, number]>>();
  if (touched.size === 0) return { touched, hunks };
  const specs = new Set<string>();
  for (const [from, to] of touched) {
    specs.add(from);
    if (to !== null) specs.add(to);
  }
  const patch = await git(gitDir, [
    'diff',
    '-U0',
    '-M',
    '--no-color',
    '--no-ext-diff',
    old,
    neu,
    '--',
    ...[...specs].map((s) => `:(literal)${s}`),
  ]);
  let current: string | null = null;
  for (const line of patch.split('\n')) {
    if (line.startsWith('--- ')) {
      current = line.startsWith('--- a/') ? line.slice(6) : null;
      if (current !== null && !hunks.has(current)) hunks.set(current, []);
    } else if (line.startsWith('@@ ') && current !== null) {
      const m = /^@@ -(\d+)(?:,(\d+))? /.exec(line);
      if (!m) continue;
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      hunks.get(current)?.push(count === 0 ? [start, start + 1] : [start, start + count - 1]);
    }
  }
  return { touched, hunks };
}

/** A line a stack frame could point at: code, not blank, not a lone bracket, not a comment. */
export function isStatement(text: string): boolean {
  const t = text.trim();
  if (t === '' || t.length > 300) return false;
  if (/^[\s{}()[\];,:]*$/.test(t)) return false;
  if (/^(\/\/|\/\*|\*|#|"""|''')/.test(t)) return false;
  if (/^(import|package|from)\s/.test(t)) return false;
  return true;
}

interface Candidate {
  path: string;
  line: number;
  text: string;
}

async function samplePair(
  repo: RepoConfig,
  gitDir: string,
  blobs: BlobReader,
  rng: Rng,
  old: string,
  neu: string,
  perPair: number,
  pairIndex: number,
): Promise<{ samples: Sample[]; touched: number } | null> {
  const diff = await changes(gitDir, old, neu, repo);
  if (diff.touched.size === 0) return null;
  const sourceFiles = (await git(gitDir, ['ls-tree', '-r', '-z', '--name-only', old]))
    .split('\0')
    .filter((p) => p !== '' && repo.matches(p));
  const touchedPaths = sourceFiles.filter((p) => diff.touched.has(p));
  if (touchedPaths.length === 0) return null;
  const untouchedPaths = sourceFiles.filter((p) => !diff.touched.has(p));

  // Pools of candidate lines in touched files: next to a hunk, and elsewhere.
  const near: Candidate[][] = [];
  const far: Candidate[][] = [];
  const texts = new Map<string, string>();
  for (const path of shuffled(rng, touchedPaths).slice(0, MAX_TOUCHED_FILES_READ)) {
    const text = await readText(blobs, old, path);
    if (text === null) continue;
    texts.set(path, text);
    const ranges = diff.hunks.get(path) ?? [];
    const n: Candidate[] = [];
    const f: Candidate[] = [];
    splitLines(text).forEach((t, i) => {
      if (!isStatement(t)) return;
      const line = i + 1;
      const isNear = ranges.some(([a, b]) => line >= a - NEAR_HUNK && line <= b + NEAR_HUNK);
      (isNear ? n : f).push({ path, line, text: t });
    });
    if (n.length > 0) near.push(n);
    if (f.length > 0) far.push(f);
  }

  const chosen = new Map<string, Candidate & { stratum: Stratum }>();
  const take = (pools: Candidate[][], count: number, stratum: Stratum): number => {
    let got = 0;
    for (let tries = 0; got < count && tries < count * 20 && pools.length > 0; tries++) {
      const pool = rng.pick(pools);
      const c = rng.pick(pool);
      const id = `${c.path}:${c.line}`;
      if (chosen.has(id)) continue;
      chosen.set(id, { ...c, stratum });
      got++;
    }
    return got;
  };
  const quarter = Math.round(perPair / 4);
  let missing = perPair;
  missing -= take(near, quarter, 'hunk');
  missing -= take(far, Math.min(quarter, missing), 'file');
  // Untouched files: read lazily, a few lines each.
  let wantUntouched = missing;
  for (let tries = 0; wantUntouched > 0 && tries < perPair * 4 && untouchedPaths.length > 0; tries++) {
    const path = rng.pick(untouchedPaths);
    const text = texts.get(path) ?? (await readText(blobs, old, path));
    if (text === null) continue;
    texts.set(path, text);
    const lines = splitLines(text)
      .map((t, i) => ({ path, line: i + 1, text: t }))
      .filter((c) => isStatement(c.text));
    if (lines.length === 0) continue;
    wantUntouched -= take([lines], 1, 'untouched');
  }
  // Small repositories: fill the rest from touched files.
  if (wantUntouched > 0) take([...near, ...far], wantUntouched, 'file');

  const picked = [...chosen.values()];
  const truth = await groundTruth(gitDir, old, neu, picked, diff);
  const samples: Sample[] = picked.map((c, i) => {
    const reported = reportedPath(rng, repo, c.path, texts.get(c.path) ?? '');
    const t = truth[i] as { strict: LineAt | null; lenient: LineAt | null };
    return {
      pair: pairIndex,
      path: c.path,
      line: c.line,
      text: c.text,
      stratum: c.stratum,
      newPath: diff.touched.has(c.path) ? (diff.touched.get(c.path) ?? null) : c.path,
      style: reported.style,
      reportedFile: reported.file,
      truth: t.strict,
      lenientTruth: t.lenient,
    };
  });
  return { samples, touched: touchedPaths.length };
}

/**
 * Half of the frames carry a CI workspace prefix; Java's other half is what a JVM prints (the
 * package path + file name, as the scraper builds it), other languages' the repository path.
 */
function reportedPath(
  rng: Rng,
  repo: RepoConfig,
  path: string,
  text: string,
): { style: PathStyle; file: string } {
  if (rng.next() < 0.5) return { style: 'workspace', file: `${WORKSPACE}job-${rng.int(1, 99)}/${path}` };
  const pkg = repo.language === 'java' ? javaPackagePath(path, text) : null;
  return pkg === null ? { style: 'repo', file: path } : { style: 'package', file: pkg };
}

async function readText(blobs: BlobReader, rev: string, path: string): Promise<string | null> {
  const blob = await blobs.read(rev, path);
  if (blob === null || blob.length > MAX_FILE_BYTES || blob.includes(0)) return null;
  return blob.toString('utf8');
}

async function groundTruth(
  gitDir: string,
  old: string,
  neu: string,
  picked: readonly Candidate[],
  diff: Changes,
): Promise<Array<{ strict: LineAt | null; lenient: LineAt | null }>> {
  const out = picked.map((c) => {
    // Untouched by old..new: same content, same path.
    const same = diff.touched.has(c.path) ? null : { path: c.path, line: c.line };
    return { strict: same, lenient: same };
  });
  const byFile = new Map<string, number[]>();
  picked.forEach((c, i) => {
    if (diff.touched.has(c.path)) byFile.set(c.path, [...(byFile.get(c.path) ?? []), i]);
  });
  for (const [path, indexes] of byFile) {
    if (diff.touched.get(path) === null) continue; // deleted file: every line is gone
    const strict = await reverseBlame(gitDir, old, neu, path, []);
    for (const i of indexes)
      (out[i] as { strict: LineAt | null }).strict = strict.get((picked[i] as Candidate).line) ?? null;
    const lenient = indexes.some((i) => out[i]?.strict === null)
      ? await reverseBlame(gitDir, old, neu, path, ['-w', '-M'])
      : strict;
    for (const i of indexes)
      (out[i] as { lenient: LineAt | null }).lenient = lenient.get((picked[i] as Candidate).line) ?? null;
  }
  return out;
}

/** Line at old → where it is at new (only lines that survive to new). */
async function reverseBlame(
  gitDir: string,
  old: string,
  neu: string,
  path: string,
  extra: readonly string[],
): Promise<Map<number, LineAt>> {
  const porcelain = await git(gitDir, [
    'blame',
    '--reverse',
    '--first-parent',
    '--porcelain',
    ...extra,
    `${old}..${neu}`,
    '--',
    path,
  ]);
  const result = new Map<number, LineAt>();
  const filenames = new Map<string, string>();
  let pending: { commit: string; origLine: number; finalLine: number } | null = null;
  for (const line of porcelain.split('\n')) {
    if (line.startsWith('\t')) {
      if (pending) {
        const file = filenames.get(pending.commit) ?? path;
        if (pending.commit === neu) result.set(pending.finalLine, { path: file, line: pending.origLine });
      }
      pending = null;
      continue;
    }
    const header = /^([0-9a-f]{40}) (\d+) (\d+)/.exec(line);
    if (header) {
      pending = { commit: header[1] as string, origLine: Number(header[2]), finalLine: Number(header[3]) };
    } else if (line.startsWith('filename ') && pending) {
      filenames.set(pending.commit, line.slice('filename '.length));
    }
  }
  return result;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Java: `package com.x;` + `Foo.java` → `com/x/Foo.java`, as a JVM frame names the source. */
export function javaPackagePath(path: string, text: string): string | null {
  const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text);
  if (!pkg?.[1]) return null;
  return `${pkg[1].replace(/\./g, '/')}/${path.slice(path.lastIndexOf('/') + 1)}`;
}
