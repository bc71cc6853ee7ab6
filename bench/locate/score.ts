/** Scores of the locator benchmark and the markdown table. */
import type { ConfidenceLevel } from '../../src/schemas/index.ts';
import type { FunctionTruth } from './functions.ts';
import type { LineAt, Sample, Stratum } from './sample.ts';

/** What a method said about one sample, reduced to what is scored. */
export interface Claim {
  level: ConfidenceLevel;
  file: string | null;
  lines: { start: number; end: number } | null;
  function: string | null;
  error?: string;
}

export interface Scored {
  samples: number;
  surviving: number;
  levels: Record<ConfidenceLevel, number>;
  lineClaims: number;
  /** `line` claims not containing the truth line (or the line is gone). */
  falsePrecise: number;
  /** The same against `blame -w -M` (whitespace-only edits and in-file moves forgiven). */
  falsePreciseLenient: number;
  /** Surviving lines claimed at `line` level correctly. */
  lineCorrect: number;
  /** `line`/`function` claims where the truth has a function. */
  functionClaims: number;
  functionCorrect: number;
  withTruthFunction: number;
  /** Claims naming a file (line/function/file) and how many name the right one. */
  fileClaims: number;
  fileCorrect: number;
  errors: number;
  /** Locations per second, second pass (warm caches); null when not timed. */
  warmRate: number | null;
  coldRate: number | null;
}

const LEVELS: ConfidenceLevel[] = ['line', 'function', 'file', 'need_evidence'];

export function emptyScore(): Scored {
  return {
    samples: 0,
    surviving: 0,
    levels: { line: 0, function: 0, file: 0, need_evidence: 0 },
    lineClaims: 0,
    falsePrecise: 0,
    falsePreciseLenient: 0,
    lineCorrect: 0,
    functionClaims: 0,
    functionCorrect: 0,
    withTruthFunction: 0,
    fileClaims: 0,
    fileCorrect: 0,
    errors: 0,
    warmRate: null,
    coldRate: null,
  };
}

function contains(claim: Claim, truth: LineAt | null): boolean {
  return (
    truth !== null &&
    claim.file === truth.path &&
    claim.lines !== null &&
    claim.lines.start <= truth.line &&
    truth.line <= claim.lines.end
  );
}

export function scoreOne(into: Scored, sample: Sample, fn: FunctionTruth | null, claim: Claim): void {
  into.samples++;
  if (sample.truth !== null) into.surviving++;
  into.levels[claim.level]++;
  if (claim.error !== undefined) into.errors++;
  if (claim.level === 'line') {
    into.lineClaims++;
    const right = contains(claim, sample.truth);
    if (!right) into.falsePrecise++;
    if (!contains(claim, sample.lenientTruth)) into.falsePreciseLenient++;
    if (right) into.lineCorrect++;
  }
  if (fn?.truth) {
    into.withTruthFunction++;
    if (claim.level === 'line' || claim.level === 'function') {
      into.functionClaims++;
      if (claim.function === fn.truth) into.functionCorrect++;
    }
  }
  if (claim.level !== 'need_evidence' && claim.file !== null) {
    into.fileClaims++;
    if (claim.file === (sample.truth?.path ?? sample.newPath)) into.fileCorrect++;
  }
}

export function merge(into: Scored, from: Scored): void {
  for (const k of Object.keys(from) as Array<keyof Scored>) {
    if (k === 'levels') for (const l of LEVELS) into.levels[l] += from.levels[l];
    else if (k !== 'warmRate' && k !== 'coldRate') (into[k] as number) += from[k] as number;
  }
}

const pct = (n: number, d: number, digits = 1): string =>
  d === 0 ? '–' : `${((100 * n) / d).toFixed(digits)}%`;
const rate = (r: number | null): string =>
  r === null ? '–' : r >= 100_000 ? `${Math.round(r / 1000)}k` : Math.round(r).toLocaleString('en-US');

export interface Row {
  repo: string;
  method: string;
  score: Scored;
}

export function table(rows: readonly Row[], withFunctions: boolean): string {
  const head = [
    'repo',
    'method',
    'samples',
    'surviving',
    'line / function / file / need_ev',
    'false-precise (≤0.5%)',
    'lenient FP',
    'line recall (≥85%)',
    ...(withFunctions ? ['function acc.', 'function recall'] : []),
    'file acc.',
    'errors',
    'loc/s warm (≥2,000)',
    'loc/s cold',
  ];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const { repo, method, score: s } of rows) {
    const cells = [
      repo,
      method,
      String(s.samples),
      String(s.surviving),
      LEVELS.map((l) => pct(s.levels[l], s.samples, 0)).join(' / '),
      `${pct(s.falsePrecise, s.lineClaims, 2)} (${s.falsePrecise}/${s.lineClaims})`,
      pct(s.falsePreciseLenient, s.lineClaims, 2),
      `${pct(s.lineCorrect, s.surviving)}`,
      ...(withFunctions
        ? [
            `${pct(s.functionCorrect, s.functionClaims)} (${s.functionCorrect}/${s.functionClaims})`,
            pct(s.functionCorrect, s.withTruthFunction),
          ]
        : []),
      pct(s.fileCorrect, s.fileClaims),
      String(s.errors),
      rate(s.warmRate),
      rate(s.coldRate),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function strataTable(rows: ReadonlyArray<{ method: string; strata: Map<Stratum, Scored> }>): string {
  const strata: Stratum[] = ['hunk', 'file', 'untouched'];
  const head = ['method', ...strata.flatMap((s) => [`${s}: FP`, `${s}: recall`])];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const row of rows) {
    const cells = [row.method];
    for (const st of strata) {
      const s = row.strata.get(st) ?? emptyScore();
      cells.push(
        `${pct(s.falsePrecise, s.lineClaims, 2)} (${s.falsePrecise}/${s.lineClaims})`,
        pct(s.lineCorrect, s.surviving),
      );
    }
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
