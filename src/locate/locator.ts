import { DiagnosisError, describeError } from '../errors/index.ts';
import { type DiffSource, type FileDiff, type GitObjects, LruCache } from '../git/index.ts';
import type { ConfidenceLevel, FunctionSpan, Location, VerifiedLocation } from '../schemas/index.ts';
import {
  type ByNameOptions,
  byName,
  type CodeParser,
  type CodeSpan,
  enclosing,
  findSnippet,
  languageOfPath,
  normalizeCode,
  type PreparedLines,
  prepareLines,
} from './anchor/index.ts';
import { candidateBlock } from './candidate.ts';
import { carryOver } from './drift.ts';
import { diffImpact } from './impact.ts';
import { type FileIndex, indexFiles, mapReportPath } from './paths.ts';
import type { PathRules } from './rules.ts';
import { throughSourceMap } from './source-map.ts';

export interface LocateTarget {
  /** The revision under review. */
  revision: string;
  /** The revision the report was built from, when known (often the same). */
  reportRevision: string | null;
  /** What the change is diffed against for diff impact; default: the revision's first parent. */
  diffBase: string | null;
}

export interface LocatorDeps {
  objects: GitObjects;
  diffs: DiffSource;
  parser: CodeParser;
  rules: PathRules;
}

export interface Locator {
  locate(frame: Location, target: LocateTarget): Promise<VerifiedLocation>;
}

/** A service locates many runs against many revisions: what it keeps warm is bounded. */
export const CACHE_LIMITS = { revisions: 8, files: 4000, diffs: 64 };

interface SourceFile {
  lines: string[];
  /** The lines normalised once: the snippet search runs many times per file. */
  prepared: PreparedLines;
  spans: CodeSpan[];
}

/**
 * Re-anchors report locations at the revision under review and grants a confidence level from
 * the ladder (shared/DESIGN.md) only as far as the evidence goes: `line` needs file + function
 * + snippet to agree or a unique snippet; otherwise it degrades to function, file or
 * need_evidence. Every step's finding is kept in `reasons`.
 */
export function createLocator(deps: LocatorDeps, limits: Partial<typeof CACHE_LIMITS> = {}): Locator {
  const max = { ...CACHE_LIMITS, ...limits };
  const indexes = new LruCache<string, Promise<FileIndex>>({ maxEntries: max.revisions });
  const sources = new LruCache<string, Promise<SourceFile | null>>({ maxEntries: max.files });
  const diffs = new LruCache<string, Promise<FileDiff[]>>({ maxEntries: max.diffs });
  const memo = <T>(cache: LruCache<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> => {
    let hit = cache.get(key);
    if (hit === undefined) {
      hit = make();
      cache.set(key, hit);
      // A failed read is not remembered: the next frame tries again (callers still see the error).
      hit.catch(() => cache.delete(key));
    }
    return hit;
  };
  const io: LocatorIo = {
    index: (rev) => memo(indexes, rev, async () => indexFiles(await deps.objects.listFiles(rev))),
    source: (rev, path) => memo(sources, `${rev}:${path}`, () => readSource(deps, rev, path)),
    diff: (base, target) => memo(diffs, `${base}..${target}`, () => deps.diffs.diff(base, target)),
  };
  return { locate: (frame, target) => locateFrame(frame, target, deps, io) };
}

interface LocatorIo {
  index(rev: string): Promise<FileIndex>;
  source(rev: string, path: string): Promise<SourceFile | null>;
  diff(base: string, target: string): Promise<FileDiff[]>;
}

async function readSource(deps: LocatorDeps, rev: string, path: string): Promise<SourceFile | null> {
  const text = await deps.objects.readFile(rev, path);
  if (text === null) return null;
  const language = languageOfPath(path);
  const lines = text.split(/\r?\n/);
  return {
    lines,
    prepared: prepareLines(lines),
    spans: language ? await deps.parser.functions(text, language) : [],
  };
}

async function locateFrame(reported: Location, target: LocateTarget, deps: LocatorDeps, io: LocatorIo) {
  const revision = await deps.objects.ensure(target.revision);
  const reportRev = target.reportRevision ? await deps.objects.ensure(target.reportRevision) : null;
  const result = new Result(reported);
  const origin = await originalPlace(reported, reportRev ?? revision, io, deps, result);
  if (origin === null) return result.finish('need_evidence');
  const { frame, path: mapped } = origin;
  const carried =
    reportRev !== null && reportRev !== revision
      ? await carryThrough(io, reportRev, revision, mapped, frame.line)
      : { file: mapped, line: frame.line, exact: reportRev !== null, reasons: [] };
  result.reasons.push(...carried.reasons);
  if (carried.file === null) return result.finish('need_evidence');
  const source = await readTarget(io, revision, carried.file, result);
  if (source === null) return result.finish(result.file === null ? 'need_evidence' : 'file');
  const snippet = frame.snippet ?? (await reportedLineText(io, reportRev, mapped, frame.line));
  const trust = reportRev === null ? 'unknown' : carried.exact ? 'carried' : 'lost';
  const placed = anchor(
    frame,
    { ...carried, origin: trust },
    source,
    snippet,
    result.reasons,
    byNameOptions(carried.file),
  );
  const change = await changeDiff(deps, io, revision, target.diffBase, result.reasons);
  result.place(placed, source, diffImpact(carried.file, placed, change, source));
  return result.finish(placed.level);
}

/**
 * The file at the revision under review. A file git will not hand over as text (too large, a
 * symlink) is named at file level at most, with the reason; a missing one needs evidence.
 */
async function readTarget(io: LocatorIo, revision: string, file: string, result: Result) {
  try {
    const source = await io.source(revision, file);
    if (source === null) result.reasons.push(`${file} does not exist at ${revision.slice(0, 12)}`);
    else result.file = file;
    return source;
  } catch (err: unknown) {
    if (!(err instanceof DiagnosisError) || (err.code !== 'FILE_TOO_LARGE' && err.code !== 'PATH_REFUSED'))
      throw err;
    result.reasons.push(`${file} cannot be read at ${revision.slice(0, 12)}: ${err.message}`);
    if (err.code === 'FILE_TOO_LARGE') result.file = file;
    return null;
  }
}

/**
 * The reported place in repository terms at the report's revision: the path mapped, and built
 * JavaScript traced back to its source through the build's source map when there is one.
 */
async function originalPlace(
  reported: Location,
  rev: string,
  io: LocatorIo,
  deps: LocatorDeps,
  result: Result,
) {
  const built = await mapPath(reported, rev, io, deps, result);
  if (built === null) return null;
  const original = await throughSourceMap(deps.objects, rev, built, reported.line, reported.column ?? null);
  if (original === null) return { frame: reported, path: built };
  result.reasons.push(original.reason);
  if (!('file' in original)) return { frame: reported, path: built };
  return { frame: { ...reported, file: original.file, line: original.line }, path: original.file };
}

/** Path mapping at the revision the report was built from; a tie is resolved only by code evidence. */
async function mapPath(frame: Location, rev: string, io: LocatorIo, deps: LocatorDeps, result: Result) {
  const mapping = mapReportPath(frame.file, await io.index(rev), deps.rules);
  result.reasons.push(...mapping.reasons);
  result.alternatives = mapping.candidates.filter((c) => c.file !== mapping.file);
  if (mapping.file !== null || mapping.tied.length === 0 || frame.function === null) return mapping.file;
  const holders: string[] = [];
  for (const path of mapping.tied) {
    const source = await io.source(rev, path);
    if (source && byName(source.spans, frame.function, byNameOptions(path)).length > 0) holders.push(path);
  }
  if (holders.length !== 1) {
    result.reasons.push(`function ${frame.function} does not single out one of them: need evidence`);
    return null;
  }
  result.reasons.push(`only ${holders[0]} defines ${frame.function}: taken`);
  return holders[0] as string;
}

/** Carries the place over the diff between the two revisions; without that diff, no line is trusted. */
async function carryThrough(io: LocatorIo, from: string, to: string, path: string, line: number | null) {
  try {
    return carryOver(path, line, await io.diff(from, to));
  } catch (err: unknown) {
    const why = `the diff ${from.slice(0, 12)}..${to.slice(0, 12)} could not be read (${describeError(err)}): no line carried over`;
    return { file: path, line: null, exact: false, reasons: [why] };
  }
}

/** The text of the reported line at the report's revision: the snippet when the frame has none. */
async function reportedLineText(io: LocatorIo, reportRev: string | null, path: string, line: number | null) {
  if (reportRev === null || line === null) return null;
  const source = await io.source(reportRev, path);
  return source?.lines[line - 1] ?? null;
}

/** The diff of the change under review (base → revision), or null with a reason when there is none. */
async function changeDiff(
  deps: LocatorDeps,
  io: LocatorIo,
  revision: string,
  base: string | null,
  reasons: string[],
) {
  const parent = base ?? (await deps.objects.parents(revision))[0] ?? null;
  if (parent === null) {
    reasons.push('the revision has no parent to diff against: diff impact unknown');
    return null;
  }
  try {
    return await io.diff(await deps.objects.ensure(parent), revision);
  } catch (err: unknown) {
    reasons.push(`the change's diff could not be read (${describeError(err)}): diff impact unknown`);
    return null;
  }
}

interface Placed {
  level: ConfidenceLevel;
  line: number | null;
  fn: FunctionSpan | null;
}

/**
 * The ladder. Function: the frame's function found by name (one match, or the one enclosing a
 * trusted line), or the function enclosing a trusted line when the frame names none. Line: the
 * snippet found uniquely inside that function, or uniquely in the file — and never in conflict
 * with a line carried over exactly. A line from a rewritten hunk needs an exact snippet match.
 */
function anchor(
  frame: Location,
  carried: { line: number | null; exact: boolean; origin: 'unknown' | 'carried' | 'lost' },
  source: SourceFile,
  snippet: string | null,
  reasons: string[],
  naming: ByNameOptions,
): Placed {
  const trusted = carried.exact ? carried.line : null;
  const fn = pickFunction(frame.function, trusted, source.spans, reasons, naming);
  const agreed = carriedAgreement(trusted, fn, source, snippet);
  if (agreed !== null) {
    reasons.push(`line ${agreed} carried over exactly, its text is the snippet and it lies in ${fn?.name}`);
    return { level: 'line', line: agreed, fn };
  }
  const match = matchSnippet(snippet, source.prepared, fn, reasons);
  const exactText = match !== null && match.score === 1;
  if (match !== null && trusted !== null && match.line !== trusted) {
    reasons.push(`snippet found at line ${match.line} but the reported line maps to ${trusted}: not precise`);
  } else if (
    match !== null &&
    carried.origin === 'lost' &&
    frame.line !== null &&
    !(exactText && fn !== null)
  ) {
    reasons.push(
      'the reported line did not survive; a similar line or one outside its function is no proof: not precise',
    );
  } else if (match !== null && carried.origin === 'unknown' && !exactText) {
    reasons.push('the report’s revision is unknown and the snippet matches only approximately: not precise');
  } else if (match !== null) {
    const inFn = fn !== null && match.line >= fn.lines.start && match.line <= fn.lines.end;
    reasons.push(
      inFn
        ? `function and snippet agree on line ${match.line}`
        : `snippet unique in the file at line ${match.line}`,
    );
    return { level: 'line', line: match.line, fn: fn ?? enclosing(source.spans, match.line) };
  }
  if (fn !== null) return { level: 'function', line: null, fn };
  reasons.push('no function could be confirmed: file only');
  return { level: 'file', line: null, fn: null };
}

/**
 * Function and snippet agree without searching: the line came over exactly (outside every
 * changed hunk), still reads as the snippet, and sits in the confirmed function. Repeated or
 * trivial lines (`return {`) are fine here — their place comes from the diff, not the text.
 */
function carriedAgreement(
  trusted: number | null,
  fn: CodeSpan | null,
  source: SourceFile,
  snippet: string | null,
) {
  if (trusted === null || fn === null || snippet === null) return null;
  if (trusted < fn.lines.start || trusted > fn.lines.end) return null;
  const here = source.prepared.normalized[trusted - 1];
  return here !== undefined && here !== '' && here === normalizeCode(snippet) ? trusted : null;
}

function pickFunction(
  name: string | null,
  trusted: number | null,
  spans: CodeSpan[],
  reasons: string[],
  naming: ByNameOptions,
): CodeSpan | null {
  const around = trusted === null ? null : enclosing(spans, trusted);
  if (name === null) {
    if (around) reasons.push(`line ${trusted} is inside ${around.name}`);
    return around;
  }
  const named = byName(spans, name, naming);
  if (named.length === 1) {
    reasons.push(`function ${name} found at lines ${named[0]?.lines.start}-${named[0]?.lines.end}`);
    return named[0] as CodeSpan;
  }
  if (named.length > 1 && around !== null && named.includes(around)) {
    reasons.push(`function ${name} is defined ${named.length} times; the one around line ${trusted} taken`);
    return around;
  }
  reasons.push(
    named.length > 1
      ? `function ${name} is defined ${named.length} times: ambiguous`
      : `function ${name} not found at the revision`,
  );
  return null;
}

function matchSnippet(
  snippet: string | null,
  lines: PreparedLines,
  fn: FunctionSpan | null,
  reasons: string[],
) {
  if (snippet === null || snippet.trim() === '') {
    reasons.push('no snippet to anchor the line');
    return null;
  }
  const found = findSnippet(lines, snippet, fn ? { within: fn.lines } : {});
  if (found.best !== null && found.unique) return found.best;
  reasons.push(
    found.best === null ? 'snippet not found' : `snippet matches ${found.matches.length} lines: ambiguous`,
  );
  return null;
}

/** Frame names depend on the language (V8 prints the runtime receiver, not the class). */
function byNameOptions(path: string): ByNameOptions {
  const language = languageOfPath(path);
  return language === null ? {} : { language };
}

/** Collects what the steps found and assembles the VerifiedLocation. */
class Result {
  readonly reasons: string[] = [];
  alternatives: VerifiedLocation['alternatives'] = [];
  file: string | null = null;
  private placed: Placed = { level: 'need_evidence', line: null, fn: null };
  private impact: VerifiedLocation['diff_impact'] = {
    kind: 'unknown',
    changed_lines: [],
    related_functions: [],
  };
  private block: VerifiedLocation['candidate'] = null;

  constructor(private readonly frame: Location) {}

  place(placed: Placed, source: SourceFile, impact: VerifiedLocation['diff_impact']): void {
    this.placed = placed;
    this.impact = impact;
    this.block = candidateBlock(this.file as string, source.lines, { line: placed.line, fn: placed.fn });
  }

  finish(level: ConfidenceLevel): VerifiedLocation {
    const precise = level === 'line' && this.placed.line !== null;
    return {
      level,
      file: level === 'need_evidence' ? null : this.file,
      function: level === 'line' || level === 'function' ? this.placed.fn : null,
      lines: precise ? { start: this.placed.line as number, end: this.placed.line as number } : null,
      reasons: this.reasons,
      diff_impact: this.impact,
      candidate: level === 'need_evidence' ? null : this.block,
      alternatives: this.alternatives,
      reported: {
        role: this.frame.role,
        frame_index: this.frame.frame_index,
        file: this.frame.file,
        line: this.frame.line,
        function: this.frame.function,
      },
    };
  }
}
