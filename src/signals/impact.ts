import type { RevisionCode } from '../context/index.ts';
import type { FileDiff } from '../git/index.ts';
import type { Citation, FunctionSpan, Issue, LineRange, Signal, VerifiedLocation } from '../schemas/index.ts';
import { firstErrorLine, testKeyOf } from './signature.ts';

/**
 * How the change under review reaches the failure. `strong`: it modified code the failure ran
 * through (the line, its function, a same-file function it calls or is called by, the file of
 * a build error, or a dependency manifest when dependencies fail). `weak`: it only modified a
 * file on the stack, away from the failing function, or the test's file elsewhere.
 */
export interface DiffLink {
  strength: 'strong' | 'weak';
  /**
   * Test code (the test's own file or a frame in a test file), production code on the stack, a
   * manifest, or `contract`: the failure is a call that no longer fits a definition this change
   * modified (the call's arguments, the definition's signature). `call`: a frame calls, by name,
   * a production function of another file this change modified (src/signals/calls.ts).
   * `intent`: the commit message says the change dropped a name on purpose and the failing
   * test still uses it (src/signals/intent.ts).
   */
  via: 'test' | 'production' | 'manifest' | 'contract' | 'call' | 'intent';
  file: string;
  signal: Signal;
}

/** Build and dependency manifests: a dependency or build failure after editing one is the edit's. */
const MANIFEST =
  /(?:^|\/)(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|gradle\.properties|libs\.versions\.toml|package(?:-lock)?\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|\.npmrc|(?:requirements|constraints)[\w.-]*\.txt|pyproject\.toml|setup\.(?:py|cfg)|Pipfile(?:\.lock)?|poetry\.lock|uv\.lock|go\.(?:mod|sum)|tsconfig[\w.-]*\.json)$/;

/** Test files by convention: test folders, *.test.*, *.spec.*, test_*.py, *_test.go/py, *Test(s).java/kt. */
const TEST_FILE =
  /(?:^|\/)(?:tests?|__tests__|spec|src\/test|src\/integrationTest)\/|\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|\/)test_[^/]+\.py$|_test\.(?:go|py)$|Tests?\.(?:java|kt|scala|cs)$|IT\.java$/;

export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

export function isManifest(path: string): boolean {
  return MANIFEST.test(path);
}

/** How many changed ranges a link cites (the nearest first). */
const MAX_CITED_RANGES = 2;

/**
 * Every way this change reaches the failure, from the locator's verified candidates (their
 * `diff_impact`), the test's own file, and — for dependency and build failures — manifests.
 */
export function diffLinks(
  issue: Issue,
  diff: readonly FileDiff[],
  options: { dependencyFailure?: boolean } = {},
): DiffLink[] {
  const links: DiffLink[] = [];
  const seen = new Set<string>();
  for (const c of issue.candidates ?? []) {
    const link = candidateLink(issue, c);
    const key = link === null ? '' : `${link.file}:${c.lines?.start ?? c.function?.name ?? ''}`;
    if (link === null || seen.has(key)) continue;
    seen.add(key);
    links.push(link);
  }
  for (const file of changedTestFiles(issue, diff)) {
    if (links.some((l) => l.file === file)) continue;
    links.push(testFileLink(file, diff));
  }
  const build = issue.category === 'compilation_error' || issue.category === 'dependency_resolution';
  if (build || options.dependencyFailure === true) {
    for (const d of diff) if (d.newPath !== null && isManifest(d.newPath)) links.push(manifestLink(d));
  }
  return links;
}

/** Every diff link as a signal: the stack's, the test file's, manifests', and call contracts'. */
export async function impactSignals(
  issue: Issue,
  ctx: {
    diff: readonly FileDiff[];
    code: Pick<RevisionCode, 'functions'>;
    baseCode?: Pick<RevisionCode, 'functions'> | null;
  },
  options: { dependencyFailure?: boolean } = {},
): Promise<Signal[]> {
  const links = [...diffLinks(issue, ctx.diff, options), ...(await contractLinks(issue, ctx))];
  return links.map((l) => l.signal);
}

/**
 * Call-contract errors name the function whose definition the call no longer fits. Each names
 * the runtime or compiler that prints it; the callee is the last dotted segment.
 */
const CONTRACT_ERRORS: readonly RegExp[] = [
  // Python: "login() got an unexpected keyword argument 'username'", "Auth.login() missing 1 required …"
  /([\w.]+)\(\) (?:got an unexpected keyword argument|missing \d+ required (?:positional|keyword-only) arguments?|takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+ (?:was|were) given|got multiple values for argument)/,
  // Python, a renamed or removed method: "AttributeError: 'AuthService' object has no attribute 'login'"
  /object has no attribute '(\w+)'/,
  // JavaScript, a renamed or removed function: "TypeError: auth.login is not a function"
  /([\w$.]+) is not a function/,
  // Java runtime: "java.lang.NoSuchMethodError: 'void com.example.Auth.login(java.lang.String)'"
  /NoSuchMethodError: '?(?:[\w.$<>[\]]+ )?([\w.$]+)\(/,
  // javac: "method login in class Auth cannot be applied to given types"
  /method (\w+) in (?:class|interface) \S+ cannot be applied to given types/,
  // Go compiler: "not enough arguments in call to auth.Login", "too many arguments in call to …"
  /(?:not enough|too many) arguments in call to ([\w.()*]+)/,
];

/** Lines from a definition's start that hold its signature (parameters may wrap). */
const SIGNATURE_LINES = 6;
/** Changed files searched for the definition, so a huge change costs a bounded number of parses. */
const MAX_FILES_SEARCHED = 50;

type Code = Pick<RevisionCode, 'functions'>;

/**
 * A call that no longer fits its definition, where this change modified that definition's
 * signature or removed (renamed) it: the code moved to a new contract and the caller (often the
 * test) still uses the old one. The stack cannot show this link — the call fails before entering
 * the function. Removals are found in the code at the base, when the context has it.
 */
export async function contractLinks(
  issue: Issue,
  ctx: { diff: readonly FileDiff[]; code: Code; baseCode?: Code | null },
): Promise<DiffLink[]> {
  const callee = calleeOf(firstErrorLine(issue));
  if (callee === null) return [];
  const links: DiffLink[] = [];
  for (const d of ctx.diff.slice(0, MAX_FILES_SEARCHED)) {
    if (d.hunks.length === 0) continue;
    const now = d.newPath === null ? [] : await named(ctx.code, d.newPath, callee);
    for (const span of now) {
      const hits = touching(span, newSides(d));
      if (hits.length > 0) links.push(contractLink(d.newPath as string, span, hits, 'modified'));
    }
    if (now.length > 0 || d.oldPath === null || !ctx.baseCode) continue;
    for (const span of await named(ctx.baseCode, d.oldPath, callee)) {
      if (touching(span, oldSides(d)).length === 0) continue;
      const file = d.newPath ?? d.oldPath;
      links.push(contractLink(file, span, newSides(d), 'removed'));
    }
  }
  return links;
}

function contractLink(
  file: string,
  span: FunctionSpan,
  changed: readonly LineRange[],
  how: 'modified' | 'removed',
): DiffLink {
  const cites: Citation[] = changed
    .slice(0, MAX_CITED_RANGES)
    .map((lines) => ({ kind: 'diff', file, lines }));
  if (how === 'modified') cites.push({ kind: 'code', file, lines: signatureOf(span) });
  if (cites.length === 0) cites.push({ kind: 'diff', file });
  const detail =
    how === 'modified'
      ? `the failing call no longer fits ${span.name} (${file}:${span.lines.start}), whose signature this change modified`
      : `the failing call names ${span.name}, which this change removed or renamed in ${file} (base line ${span.lines.start})`;
  return { strength: 'strong', via: 'contract', file, signal: { kind: 'diff_impact', detail, cites } };
}

async function named(code: Code, path: string, callee: string): Promise<FunctionSpan[]> {
  return (await code.functions(path)).filter((s) => simpleName(s.name) === callee);
}

/** The changed ranges that touch the definition's signature lines. */
function touching(span: FunctionSpan, changed: readonly LineRange[]): LineRange[] {
  const signature = signatureOf(span);
  return changed.filter((r) => r.start <= signature.end && signature.start <= r.end);
}

function signatureOf(span: FunctionSpan): LineRange {
  return { start: span.lines.start, end: Math.min(span.lines.end, span.lines.start + SIGNATURE_LINES - 1) };
}

function newSides(d: FileDiff): LineRange[] {
  return d.hunks
    .filter((h) => h.newLines > 0)
    .map((h) => ({ start: h.newStart, end: h.newStart + h.newLines - 1 }));
}

function oldSides(d: FileDiff): LineRange[] {
  return d.hunks
    .filter((h) => h.oldLines > 0)
    .map((h) => ({ start: h.oldStart, end: h.oldStart + h.oldLines - 1 }));
}

export function calleeOf(reason: string): string | null {
  for (const re of CONTRACT_ERRORS) {
    const m = re.exec(reason);
    if (m !== null) return simpleName(m[1] as string);
  }
  return null;
}

function simpleName(name: string): string {
  const trimmed = name.replace(/[()*]/g, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('.'), trimmed.lastIndexOf('$')) + 1);
}

/**
 * Test files this change modifies that belong to the failing test: the test frame's file, or a
 * changed test file whose name stem the test's id contains (when the stack has no test frame).
 */
export function changedTestFiles(issue: Issue, diff: readonly FileDiff[]): string[] {
  const changed = diff.flatMap((d) => (d.newPath === null ? [] : [d.newPath]));
  const fromFrames = (issue.candidates ?? [])
    .filter((c) => c.reported.role === 'test' && c.file !== null && changed.includes(c.file))
    .map((c) => c.file as string);
  const id = `${testKeyOf(issue)} ${issue.test.full_name ?? ''}`;
  const byName = changed.filter((path) => isTestFile(path) && namesFile(id, stem(path)));
  return [...new Set([...fromFrames, ...byName])];
}

function candidateLink(issue: Issue, c: VerifiedLocation): DiffLink | null {
  const impact = c.diff_impact;
  if (c.file === null || impact.kind === 'untouched' || impact.kind === 'unknown') return null;
  const via = c.reported.role === 'test' || isTestFile(c.file) ? 'test' : 'production';
  const where = placeOf(c);
  const compileError = issue.category === 'compilation_error' && c.reported.role === 'failure';
  const related = impact.related_functions;
  let strength: DiffLink['strength'] = 'strong';
  let detail: string;
  if (impact.kind === 'in_hunk') detail = `${where} is on a line this change modified`;
  else if (impact.kind === 'in_function') detail = `${where} is in a function this change modified`;
  else if (related.length > 0)
    detail = `${where} calls or is called by ${related.join(', ')}, which this change modified`;
  else if (compileError) detail = `the build error at ${where} is in a file this change modified`;
  else {
    strength = 'weak';
    detail = `this change modified ${c.file}, but not ${where}'s function`;
  }
  const cites: Citation[] = impact.changed_lines
    .slice(0, MAX_CITED_RANGES)
    .map((lines) => ({ kind: 'diff', file: c.file as string, lines: validRange(lines) }));
  if (cites.length === 0) cites.push({ kind: 'diff', file: c.file });
  if (c.lines !== null) cites.push({ kind: 'code', file: c.file, lines: c.lines });
  const role = c.reported.role === 'frame' ? 'a frame' : `the ${c.reported.role} frame`;
  return {
    strength,
    via,
    file: c.file,
    signal: { kind: 'diff_impact', detail: `${role}: ${detail}`, cites },
  };
}

function testFileLink(file: string, diff: readonly FileDiff[]): DiffLink {
  return {
    strength: 'weak',
    via: 'test',
    file,
    signal: {
      kind: 'diff_impact',
      detail: `this change modifies the failing test's own file ${file}`,
      cites: diffCites(file, diff),
    },
  };
}

function manifestLink(d: FileDiff): DiffLink {
  const file = d.newPath as string;
  return {
    strength: 'strong',
    via: 'manifest',
    file,
    signal: {
      kind: 'diff_impact',
      detail: `this change modifies the build or dependency manifest ${file}, and the failure is a build or dependency failure`,
      cites: diffCites(file, [d]),
    },
  };
}

function diffCites(file: string, diff: readonly FileDiff[]): Citation[] {
  const hunks = diff.find((d) => d.newPath === file)?.hunks ?? [];
  const ranges = hunks
    .filter((h) => h.newLines > 0)
    .slice(0, MAX_CITED_RANGES)
    .map((h) => ({ start: h.newStart, end: h.newStart + h.newLines - 1 }));
  return ranges.length === 0
    ? [{ kind: 'diff', file }]
    : ranges.map((lines): Citation => ({ kind: 'diff', file, lines: validRange(lines) }));
}

/** A pure deletion's range starts at the line before it, which may be 0 (the file's top). */
function validRange(r: LineRange): LineRange {
  const start = Math.max(1, r.start);
  return { start, end: Math.max(start, r.end) };
}

function placeOf(c: VerifiedLocation): string {
  const line = c.lines?.start ?? c.reported.line;
  const fn = c.function?.name ?? c.reported.function;
  return `${c.file}${line === null ? '' : `:${line}`}${fn === null ? '' : ` (${fn})`}`;
}

/** The id names the file's stem as a whole word ("test_stock" in "tests.test_stock#test_x"). */
function namesFile(id: string, fileStem: string): boolean {
  if (fileStem.length < 4) return false;
  const escaped = fileStem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<!\\w)${escaped}(?!\\w)`).test(id);
}

/** `test/checkout.test.ts` → `checkout.test`; `tests/test_stock.py` → `test_stock`. */
function stem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
