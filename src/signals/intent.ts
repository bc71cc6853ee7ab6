import type { RevisionCode } from '../context/index.ts';
import type { FileDiff } from '../git/index.ts';
import type { CodeSpan } from '../locate/anchor/index.ts';
import type { Citation, Issue, LineRange, VerifiedLocation } from '../schemas/index.ts';
import {
  callNames,
  changedRanges,
  codeOf,
  linesOf,
  MAX_CHANGED_FILES,
  overlaps,
  showLines,
  simpleName,
  wordIn,
} from './code.ts';
import { type DiffLink, isTestFile } from './impact.ts';
import { targetCite } from './targets.ts';
import { clip } from './text.ts';

/**
 * Wording with which a commit message says a behaviour or an API changed on purpose. Each is
 * only a hint: `now` and `instead of` also describe refactorings ("gross_price() now works in
 * integer cents"), so the wording never decides alone (see `intentLinks`).
 */
const DELIBERATE: readonly RegExp[] = [
  /\brenam(?:e|es|ed|ing)\b/i,
  /\breplac(?:e|es|ed|ing)\b/i,
  /\bno longer\b/i,
  /\bbreaking\b/i,
  /\bdeprecat\w*/i,
  /\bintentional(?:ly)?\b/i,
  /\bdeliberate(?:ly)?\b/i,
  /\bon purpose\b/i,
  /\binstead of\b/i,
  /\bnow\b/i,
  /\bAPI (?:change|v\d+)\b/i,
];

/** Message lines (trailers such as `Change-Id:` left out) that state a deliberate change. */
export function deliberateLines(message: string): string[] {
  return messageLines(message).filter((line) => DELIBERATE.some((re) => re.test(line)));
}

/**
 * The message line that names `name` (as a whole word) in a message stating a deliberate
 * change, preferring a line that has the deliberate wording itself; null when the message
 * states no deliberate change or does not name it.
 */
export function messageNaming(message: string, name: string): string | null {
  if (deliberateLines(message).length === 0) return null;
  const naming = messageLines(message).filter((line) => wordIn(line, name));
  return naming.find((line) => DELIBERATE.some((re) => re.test(line))) ?? naming[0] ?? null;
}

/** The message's non-blank lines without its trailer block (`Change-Id: …`, `Signed-off-by: …`). */
function messageLines(message: string): string[] {
  const paragraphs = message.trim().split(/\r?\n\s*\r?\n/);
  const last = (paragraphs.at(-1) ?? '').split(/\r?\n/);
  const trailers = paragraphs.length > 1 && last.every((l) => /^[A-Za-z][\w-]*: \S/.test(l.trim()));
  return (trailers ? paragraphs.slice(0, -1) : paragraphs)
    .flatMap((p) => p.split(/\r?\n/))
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Names shorter than this are too common to say anything. */
const MIN_NAME = 3;
/** How much of the message line a signal quotes. */
const MAX_QUOTE = 160;

interface Removed {
  name: string;
  file: string;
  /** Target-side ranges of the hunks that removed it. */
  ranges: LineRange[];
}

/**
 * An intended contract change the failing test was not updated to: the commit message states a
 * deliberate change (rename, replace, "no longer", breaking, deprecate, "now", "instead of"…)
 * and names a name — an identifier or a string such as a parameter — that the change removed
 * from a production file's code (in removed lines, nowhere in the file's code at the revision),
 * and the failing test's code still uses that name: its own function, or a helper of its file
 * that it calls (a request builder), on lines the change did not edit. The test then checks
 * the old contract: `stale_test_expectation`, with the fix in the test.
 *
 * All four conditions are needed. Wording alone describes refactorings too; a removed name
 * alone is what every regression looks like; only the test still holding on to the very name
 * the message says was dropped tells the two apart. It stays a reading of the message: the
 * change may be a regression for clients all the same (the engine lists that alternative).
 */
export async function intentLinks(
  issue: Issue,
  ctx: {
    message: string;
    diff: readonly FileDiff[];
    code: Pick<RevisionCode, 'read' | 'functions'>;
    baseCode: Pick<RevisionCode, 'read'> | null;
  },
): Promise<DiffLink[]> {
  if (ctx.baseCode === null || deliberateLines(ctx.message).length === 0) return [];
  const tests = (issue.candidates ?? []).filter(
    (c) =>
      c.reported.role === 'test' && c.file !== null && c.function !== null && c.level !== 'need_evidence',
  );
  if (tests.length === 0) return [];
  const removed = (await removedNames(ctx.diff, ctx.code, ctx.baseCode)).filter(
    (r) => messageNaming(ctx.message, r.name) !== null,
  );
  if (removed.length === 0) return [];
  const links: DiffLink[] = [];
  for (const test of tests) {
    const hit = await staleUse(test, removed, ctx);
    if (hit !== null) links.push(intentLink(hit, messageNaming(ctx.message, hit.removed.name) as string));
  }
  return links;
}

async function removedNames(
  diff: readonly FileDiff[],
  code: Pick<RevisionCode, 'read'>,
  baseCode: Pick<RevisionCode, 'read'>,
): Promise<Removed[]> {
  const out: Removed[] = [];
  const files = diff.filter(
    (d) =>
      d.oldPath !== null &&
      d.newPath !== null &&
      !isTestFile(d.newPath) &&
      d.hunks.some((h) => h.oldLines > 0),
  );
  for (const d of files.slice(0, MAX_CHANGED_FILES)) {
    const before = await linesOf(baseCode, d.oldPath as string);
    const after = await linesOf(code, d.newPath as string);
    if (before === null || after === null) continue;
    const now = new Set(after.flatMap(namesIn));
    const ranges = changedRanges(d);
    const found = new Map<string, LineRange[]>();
    d.hunks.forEach((h, i) => {
      for (let n = h.oldStart; n < h.oldStart + h.oldLines; n++) {
        for (const name of namesIn(before[n - 1] ?? '')) {
          if (now.has(name)) continue;
          const at = found.get(name) ?? [];
          const range = ranges[i] as LineRange;
          if (!at.includes(range)) at.push(range);
          found.set(name, at);
        }
      }
    });
    for (const [name, at] of found) out.push({ name, file: d.newPath as string, ranges: at });
  }
  return out;
}

/** Identifiers and words inside strings, of one line of code (comments left out). */
function namesIn(line: string): string[] {
  return [...codeOf(line).matchAll(/[A-Za-z_$][\w$]*/g)].map((m) => m[0]).filter((n) => n.length >= MIN_NAME);
}

interface StaleUse {
  test: VerifiedLocation;
  unit: CodeSpan | NonNullable<VerifiedLocation['function']>;
  line: number;
  removed: Removed;
}

/** The first line of the test's function, or of a same-file helper it calls, that uses a removed name. */
async function staleUse(
  test: VerifiedLocation,
  removed: readonly Removed[],
  ctx: { diff: readonly FileDiff[]; code: Pick<RevisionCode, 'read' | 'functions'> },
): Promise<StaleUse | null> {
  const file = test.file as string;
  const fn = test.function as NonNullable<VerifiedLocation['function']>;
  const lines = await linesOf(ctx.code, file);
  if (lines === null) return null;
  const edited = ctx.diff.filter((d) => d.newPath === file).flatMap(changedRanges);
  const body = lines.slice(fn.lines.start - 1, fn.lines.end);
  const called = new Set(body.flatMap(callNames));
  const own = simpleName(fn.name);
  const helpers = (await ctx.code.functions(file)).filter(
    (s) => s.kind !== 'callback' && simpleName(s.name) !== own && called.has(simpleName(s.name)),
  );
  for (const unit of [fn, ...helpers]) {
    for (let n = unit.lines.start; n <= Math.min(unit.lines.end, lines.length); n++) {
      if (edited.some((r) => overlaps(r, { start: n, end: n }))) continue;
      const code = codeOf(lines[n - 1] ?? '');
      const hit = removed.find((r) => wordIn(code, r.name));
      if (hit !== undefined) return { test, unit, line: n, removed: hit };
    }
  }
  return null;
}

function intentLink(hit: StaleUse, quote: string): DiffLink {
  const file = hit.test.file as string;
  const { name, ranges } = hit.removed;
  const said = clip(quote, MAX_QUOTE);
  const where = hit.unit === hit.test.function ? 'the test itself' : `the test helper ${hit.unit.name}`;
  const detail = `the commit message states a deliberate change naming \`${name}\` ("${said}"); this change removed \`${name}\` from ${hit.removed.file} (${ranges
    .slice(0, 2)
    .map(showLines)
    .join(', ')}), and ${where} still uses it at ${file}:${hit.line}, a line the change did not update`;
  const cites: Citation[] = [
    ...ranges.slice(0, 2).map((lines): Citation => ({ kind: 'diff', file: hit.removed.file, lines })),
    { kind: 'code', file, lines: { start: hit.line, end: hit.line } },
    targetCite('stale_use', { file, function: hit.unit.name, lines: hit.unit.lines }),
  ];
  return { strength: 'strong', via: 'intent', file, signal: { kind: 'diff_impact', detail, cites } };
}
