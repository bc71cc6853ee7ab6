/**
 * npm run bench:locate — accuracy and speed of the locator (issue 3, "Accuracy and speed,
 * measured") against git's own line tracking, next to the naive baseline "trust the reported
 * line".
 *
 * For each repository of bench/locate/repos.json: K commit pairs (old, new) on the first-parent
 * history, M source lines sampled at old (half in files the pair touched, a quarter of all next
 * to a hunk), ground truth from `git blame --reverse --first-parent old..new`, function truth
 * from the anchor module's parser. Each sample becomes a stack frame as a report gives it (half
 * under a CI workspace prefix; Java's other half as package path) and is located at `new` with
 * reportRevision `old`. Everything sampled is cached under var/bench/locate/ (deterministic for
 * the seed and each repository's HEAD). The locator runs the whole set twice; the second pass
 * (warm caches) is timed.
 *
 * Usage: npm run bench:locate [-- --repos a,b --concurrency 16 --baseline-only --make-bundles
 *        --config bench/locate/repos.json --out var/bench/locate-results.md]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import pLimit from 'p-limit';
import { loadPathRules } from '../src/locate/rules.ts';
import type { Language, Location, VerifiedLocation } from '../src/schemas/index.ts';
import { Baseline } from './locate/baseline.ts';
import { cloneBundles, makeBundles } from './locate/bundles.ts';
import { type BenchConfig, loadConfig, type RepoConfig, repoLocation } from './locate/config.ts';
import { type FunctionTruth, functionTruth } from './locate/functions.ts';
import { gitDirOf } from './locate/git.ts';
import { loadOrSample, type SampleSet, type Stratum } from './locate/sample.ts';
import {
  type Claim,
  emptyScore,
  merge,
  type Row,
  type Scored,
  scoreOne,
  strataTable,
  table,
} from './locate/score.ts';

const RULES_PATH = 'config/path-mapping.json';

const { values } = parseArgs({
  options: {
    config: { type: 'string', default: 'bench/locate/repos.json' },
    repos: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    'baseline-only': { type: 'boolean', default: false },
    'make-bundles': { type: 'boolean', default: false },
    out: { type: 'string', default: 'var/bench/locate-results.md' },
    failures: { type: 'string', default: 'var/bench/locate-failures.jsonl' },
  },
});

interface Prepared {
  repo: RepoConfig;
  path: string;
  gitDir: string;
  set: SampleSet;
  frames: Location[];
  functions: FunctionTruth[] | null;
}

interface Measured {
  prepared: Prepared;
  baseline: Claim[];
  baselineRate: number;
  locator: Claim[] | null;
  results: VerifiedLocation[] | null;
  warm: number | null;
  cold: number | null;
  unstable: number;
}

const started = performance.now();
const notes: string[] = [];
const config = loadConfig(values.config as string);
const only = values.repos ? new Set(String(values.repos).split(',')) : null;
const repos = config.repos.filter((r) => only === null || only.has(r.name));
if (values['make-bundles']) await makeBundles(repos);
else await cloneBundles(repos);

// 1. Samples and truth (cached), functions (cached).
const anchor = await importAnchor();
const parser = anchor ? await anchor.createCodeParser() : null;
const twoAtATime = pLimit(2);
const prepared = (await Promise.all(repos.map((r) => twoAtATime(() => prepare(r, config))))).filter(
  (p): p is Prepared => p !== null,
);

// 2. The locator, if it is there.
const locatorModule = values['baseline-only'] ? null : await importLocator();
const stripPrefixes = (await loadPathRules(RULES_PATH)).stripPrefixes;
const measured: Measured[] = [];
for (const p of prepared) measured.push(await measure(p));

// 3. Scores.
const rows: Row[] = [];
const totals = { locator: emptyScore(), baseline: emptyScore() };
let warmSeconds = 0;
let coldSeconds = 0;
let baselineSeconds = 0;
const strata = { locator: new Map<Stratum, Scored>(), baseline: new Map<Stratum, Scored>() };
const failures: string[] = [];
for (const m of measured) {
  const { set, functions, frames } = m.prepared;
  const base = emptyScore();
  const loc = emptyScore();
  set.samples.forEach((s, i) => {
    const fn = functions?.[i] ?? null;
    const b = m.baseline[i] as Claim;
    scoreOne(base, s, fn, b);
    scoreOne(stratum(strata.baseline, s.stratum), s, fn, b);
    const l = m.locator?.[i];
    if (l) {
      scoreOne(loc, s, fn, l);
      scoreOne(stratum(strata.locator, s.stratum), s, fn, l);
      const wrongLine =
        l.level === 'line' &&
        !(
          s.truth &&
          l.file === s.truth.path &&
          l.lines &&
          l.lines.start <= s.truth.line &&
          s.truth.line <= l.lines.end
        );
      const missed = s.truth !== null && l.level !== 'line';
      const wrongFn = (l.level === 'line' || l.level === 'function') && fn?.truth && l.function !== fn.truth;
      if (wrongLine || missed || wrongFn || l.error) {
        const pair = set.pairs[s.pair];
        failures.push(
          JSON.stringify({
            repo: set.repo,
            kind: wrongLine ? 'false_precise' : l.error ? 'error' : missed ? 'missed_line' : 'wrong_function',
            old: pair?.old,
            new: pair?.new,
            stratum: s.stratum,
            frame: frames[i],
            text: s.text,
            truth: s.truth,
            lenient_truth: s.lenientTruth,
            truth_function: fn?.truth ?? null,
            claim: l,
            reasons: m.results?.[i]?.reasons,
          }),
        );
      }
    }
  });
  base.warmRate = m.baselineRate;
  baselineSeconds += set.samples.length / m.baselineRate;
  merge(totals.baseline, base);
  if (m.locator) {
    loc.warmRate = m.warm === null ? null : set.samples.length / m.warm;
    loc.coldRate = m.cold === null ? null : set.samples.length / m.cold;
    warmSeconds += m.warm ?? 0;
    coldSeconds += m.cold ?? 0;
    merge(totals.locator, loc);
    rows.push({ repo: set.repo, method: 'locator', score: loc });
    if (m.unstable > 0)
      notes.push(`${set.repo}: ${m.unstable} answers differ between the cold and the warm pass`);
  }
  rows.push({ repo: set.repo, method: 'baseline', score: base });
}
const all = totals.locator.samples > 0;
if (all) {
  totals.locator.warmRate = totals.locator.samples / warmSeconds;
  totals.locator.coldRate = totals.locator.samples / coldSeconds;
  rows.push({ repo: '**all**', method: '**locator**', score: totals.locator });
}
totals.baseline.warmRate = totals.baseline.samples / baselineSeconds;
rows.push({ repo: '**all**', method: '**baseline**', score: totals.baseline });

const withFunctions = prepared.some((p) => p.functions !== null);
const summary = prepared
  .map((p) => {
    const s = p.set.samples;
    const renamed = s.filter((x) => x.truth && x.truth.path !== x.path).length;
    const moved = s.filter((x) => x.truth && x.truth.line !== x.line).length;
    const skipped =
      p.set.unreadablePairs > 0
        ? `, ${p.set.unreadablePairs} pairs skipped for blobs missing in the mirror`
        : '';
    return `${p.repo.name} (${p.repo.language}, ${p.set.pairs.length} pairs${skipped}, gap ${Math.min(...p.set.pairs.map((x) => x.gap))}–${Math.max(...p.set.pairs.map((x) => x.gap))}, HEAD ${p.set.head.slice(0, 10)}): ${s.length - s.filter((x) => x.truth).length} gone, ${moved} moved, ${renamed} in renamed files`;
  })
  .join('; ');
const markdown = [
  `## Locator benchmark — ${new Date().toISOString().slice(0, 16)}Z`,
  '',
  table(rows, withFunctions),
  '',
  'By stratum (all repositories): `hunk` = within 3 lines of a change old..new, `file` = elsewhere in a touched file, `untouched` = file unchanged.',
  '',
  strataTable([
    ...(all ? [{ method: 'locator', strata: strata.locator }] : []),
    { method: 'baseline', strata: strata.baseline },
  ]),
  '',
  `- Truth: \`git blame --reverse --first-parent old..new\` (no -w); "lenient FP" re-scores line claims against \`blame -w -M\`. Function truth: the anchor parser's enclosing function at new (for a gone line: the frame's function, if defined exactly once in the file at new).`,
  `- Samples: ${summary}.`,
  `- Frames: role failure, half under \`/home/jenkins/workspace/job-N/\`, Java's other half as the JVM prints it (package path), function = enclosing function at old, snippet null; located at new with reportRevision old, diffBase new^1. Warm = second pass over the same set, concurrency ${values.concurrency}; cold includes opening the repository.`,
  ...(withFunctions ? [] : ['- Function truth not computed: src/locate/anchor/ not available.']),
  ...(all ? [] : ['- Locator not run (see the note above the table).']),
  ...notes.map((n) => `- ${n}`),
  `- Whole bench ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  '',
].join('\n');
console.log(`\n${markdown}`);
mkdirSync(dirname(values.out as string), { recursive: true });
writeFileSync(values.out as string, markdown);
writeFileSync(values.failures as string, failures.length > 0 ? `${failures.join('\n')}\n` : '');
console.log(`written ${values.out}; locator misses and errors in ${values.failures} (${failures.length})`);

// ---------------------------------------------------------------------------------------------

async function prepare(repo: RepoConfig, cfg: BenchConfig): Promise<Prepared | null> {
  const where = repoLocation(repo);
  if (where === null) {
    const note = `${repo.name}: skipped — no repository at ${repo.path ?? repo.mirror ?? '?'}${repo.source ? ` (bring ${repo.source}, or put a bundle in var/bench/bundles/${repo.name}.bundle)` : ''}`;
    console.log(`note: ${note}`);
    notes.push(note);
    return null;
  }
  const gitDir = await gitDirOf(where.path);
  const set = await loadOrSample(repo, gitDir, cfg.seed);
  const fn = anchor && parser ? await functionTruth(set, gitDir, anchor, parser) : null;
  console.log(
    `${repo.name}: ${set.samples.length} samples over ${set.pairs.length} pairs from ${where.path} (${where.via}); ` +
      `truth ${set.cached ? 'cached' : `${set.seconds.toFixed(1)} s`}` +
      (fn ? `, functions ${fn.cached ? 'cached' : `${fn.seconds.toFixed(1)} s`}` : ''),
  );
  const frames = set.samples.map((s, i) => frame(s.reportedFile, s.line, fn?.truths[i]?.frameText ?? null));
  return { repo, path: where.path, gitDir, set, frames, functions: fn?.truths ?? null };
}

function frame(file: string, line: number, fn: string | null): Location {
  return {
    role: 'failure',
    file,
    line,
    function: fn,
    snippet: null,
    language: languageOf(file),
    library: false,
    frame_index: 0,
  };
}

function languageOf(path: string): Language {
  const ext = path.slice(path.lastIndexOf('.') + 1);
  if (ext === 'java') return 'java';
  if (ext === 'py') return 'python';
  if (ext === 'go') return 'go';
  if (['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'mts', 'cts'].includes(ext)) return 'javascript';
  return 'unknown';
}

async function measure(p: Prepared): Promise<Measured> {
  const { set, frames } = p;
  // Baseline: trees loaded first (its "warm cache"), then timed.
  const baseline = new Baseline(p.gitDir, stripPrefixes);
  for (const pair of set.pairs) await baseline.warm(pair.new);
  let baseClaims: Claim[] = [];
  const t0 = performance.now();
  const rounds = 20;
  for (let r = 0; r < rounds; r++) {
    baseClaims = set.samples.map((s, i) =>
      baseline.locate(
        frames[i] as Location,
        set.pairs[s.pair]?.new as string,
        p.functions?.[i]?.frame ?? null,
      ),
    );
  }
  const baselineRate = (rounds * set.samples.length) / ((performance.now() - t0) / 1000);
  if (locatorModule === null) {
    return {
      prepared: p,
      baseline: baseClaims,
      baselineRate,
      locator: null,
      results: null,
      warm: null,
      cold: null,
      unstable: 0,
    };
  }
  const coldStart = performance.now();
  const deps = await locatorModule.openLocatorDeps(p.path, { rulesPath: RULES_PATH });
  try {
    const locator = locatorModule.createLocator(deps);
    const run = async (): Promise<{ results: Array<VerifiedLocation | Error>; seconds: number }> => {
      const t = performance.now();
      const results = await mapLimit(set.samples.length, Number(values.concurrency), (i) => {
        const s = set.samples[i];
        const pair = s && set.pairs[s.pair];
        if (!pair) throw new Error('sample without pair');
        return locator.locate(frames[i] as Location, {
          revision: pair.new,
          reportRevision: pair.old,
          diffBase: pair.diffBase,
        });
      });
      return { results, seconds: (performance.now() - t) / 1000 };
    };
    const cold = await run();
    const coldSeconds = (performance.now() - coldStart) / 1000;
    const warm = await run();
    const claims = warm.results.map(toClaim);
    const coldClaims = cold.results.map(toClaim);
    const unstable = claims.filter((c, i) => JSON.stringify(c) !== JSON.stringify(coldClaims[i])).length;
    console.log(
      `${set.repo}: locator cold ${coldSeconds.toFixed(2)} s, warm ${warm.seconds.toFixed(2)} s for ${set.samples.length} locations`,
    );
    return {
      prepared: p,
      baseline: baseClaims,
      baselineRate,
      locator: claims,
      results: warm.results.map((r) => (r instanceof Error ? (null as unknown as VerifiedLocation) : r)),
      warm: warm.seconds,
      cold: coldSeconds,
      unstable,
    };
  } finally {
    await deps.close();
  }
}

function toClaim(r: VerifiedLocation | Error): Claim {
  if (r instanceof Error)
    return { level: 'need_evidence', file: null, lines: null, function: null, error: r.message };
  return { level: r.level, file: r.file, lines: r.lines, function: r.function?.name ?? null };
}

function stratum(map: Map<Stratum, Scored>, s: Stratum): Scored {
  let hit = map.get(s);
  if (!hit) {
    hit = emptyScore();
    map.set(s, hit);
  }
  return hit;
}

/** Runs `work(0..n-1)` with at most `limit` in flight; errors become values. */
async function mapLimit<T>(
  n: number,
  limit: number,
  work: (i: number) => Promise<T>,
): Promise<Array<T | Error>> {
  const out = new Array<T | Error>(n);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < n; i = next++) {
      try {
        out[i] = await work(i);
      } catch (err: unknown) {
        out[i] = err instanceof Error ? err : new Error(String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

async function importAnchor(): Promise<typeof import('../src/locate/anchor/index.ts') | null> {
  try {
    return await import('../src/locate/anchor/index.ts');
  } catch (err: unknown) {
    const note = `function truth skipped: src/locate/anchor/index.ts not loadable (${(err as Error).message.split('\n')[0]})`;
    console.log(`note: ${note}`);
    notes.push(note);
    return null;
  }
}

async function importLocator(): Promise<typeof import('../src/locate/index.ts') | null> {
  try {
    return await import('../src/locate/index.ts');
  } catch (err: unknown) {
    const note = `locator not run: src/locate/index.ts not loadable (${(err as Error).message.split('\n')[0]})`;
    console.log(`note: ${note}`);
    notes.push(note);
    return null;
  }
}
