import type { RevisionCode } from '../context/index.ts';
import { type CodeSpan, languageOfPath } from '../locate/anchor/index.ts';
import type { Citation, FunctionSpan, Issue } from '../schemas/index.ts';
import { linesOf, simpleName, wordIn } from './code.ts';
import type { FlakyFinding } from './flaky.ts';
import { firstErrorLine } from './signature.ts';
import { targetCite } from './targets.ts';
import { clip, factCite } from './text.ts';

/** A record (row, user, key, file) exists that the code expected not to. */
const UNIQUENESS: readonly RegExp[] = [
  /\balready (?:exists?|registered|taken|in use|present|defined|recorded|created|added)\b/i,
  /\bduplicate/i,
  /\bunique(?:ness)?[ _-]?(?:constraint|violation|key|index)\b/i,
  /\bUNIQUE constraint failed\b/,
  /\bEEXIST\b|\bFile exists\b|FileAlreadyExists/,
  /\bAlreadyExists\w*|\bALREADY_EXISTS\b/,
];

/** The same words about a port or an address: the runner's environment, not test data. */
const NOT_DATA = /address already in use|EADDRINUSE|\bport\b[^.]*\balready\b|\bbind\b/i;

export function isUniquenessError(reason: string): boolean {
  return !NOT_DATA.test(reason) && UNIQUENESS.some((re) => re.test(reason));
}

/**
 * State leaking between tests or runs: the failure is a uniqueness error (duplicate key,
 * "already exists", "already registered", a unique constraint) in a test whose path this change
 * does not touch (the caller passes `untouched`: no diff link at all, and the stack and the
 * test's file are untouched). A test that creates a record and finds it already there ran on
 * data an earlier test or run left behind — a workspace or database not cleaned — so it would
 * pass on clean data: `flaky`, category `fixture_or_mock` (test data not isolated).
 *
 * It is not a leak when the test itself created the value earlier (the value the error quotes
 * appears in the test's lines before the failing one): the test then collides with itself.
 *
 * The test's data comes from its setup, where the fix belongs: a pytest fixture the test
 * function asks for by parameter (defined in the test's file or a `conftest.py` of its folder or
 * a parent; the parameter the failing line uses first), a JUnit `@BeforeEach`/`@Before` method
 * of the test's file; otherwise the test function itself.
 */
export async function stateLeakFindings(
  issue: Issue,
  ctx: { code: Pick<RevisionCode, 'read' | 'functions' | 'list'> },
  untouched: boolean,
): Promise<FlakyFinding[]> {
  const reason = firstErrorLine(issue);
  if (!untouched || !isUniquenessError(reason)) return [];
  const test = (issue.candidates ?? []).find(
    (c) =>
      c.reported.role === 'test' && c.file !== null && c.function !== null && c.level !== 'need_evidence',
  );
  if (test === undefined) return [];
  const file = test.file as string;
  const fn = test.function as FunctionSpan;
  const lines = await linesOf(ctx.code, file);
  if (lines === null) return [];
  const failing = test.lines?.end ?? test.reported.line;
  if (failing === null || failing < fn.lines.start || failing > fn.lines.end) return [];
  const value = quotedValue(reason);
  const before = lines.slice(fn.lines.start - 1, failing - 1).join('\n');
  if (value !== null && before.toLowerCase().includes(value.toLowerCase())) return [];
  const failingLine = lines[failing - 1] ?? '';
  const createsIt = value !== null && failingLine.toLowerCase().includes(value.toLowerCase());
  const setup = (await setupOf(file, fn, lines, failingLine, ctx.code)) ?? {
    file,
    span: fn,
    how: 'the test itself',
  };
  const errorIndex = issue.facts.findIndex((f) => f.type === 'error');
  const what = createsIt
    ? `the record the test creates at ${file}:${failing} already existed`
    : `a record the test expects to be new already existed (${file}:${failing})`;
  const detail = `a uniqueness error ("${clip(reason, 120)}") on a path this change does not touch: ${what}, most likely left by an earlier test or run (test data not isolated between runs); the test's data comes from ${setup.how} ${setup.span.name} (${setup.file}:${setup.span.lines.start}-${setup.span.lines.end})`;
  const cites: Citation[] = [
    ...(errorIndex === -1 ? [] : [factCite(issue, errorIndex)]),
    { kind: 'code', file, lines: { start: failing, end: failing } },
    { kind: 'code', file: setup.file, lines: setup.span.lines },
    targetCite('fixture', { file: setup.file, function: setup.span.name, lines: setup.span.lines }),
  ];
  return [{ basis: 'state_leak', signal: { kind: 'flaky', detail, cites } }];
}

/** The first quoted value of a message: `'ada@example.com'`, `"KEY-1"`, `(email)=(a@b.c)`. */
function quotedValue(reason: string): string | null {
  const m = /'([^']{2,})'|"([^"]{2,})"|\)=\(([^)]{2,})\)/.exec(reason);
  return m === null ? null : ((m[1] ?? m[2] ?? m[3]) as string);
}

interface Setup {
  file: string;
  span: FunctionSpan;
  how: string;
}

async function setupOf(
  file: string,
  test: FunctionSpan,
  lines: readonly string[],
  failingLine: string,
  code: Pick<RevisionCode, 'read' | 'functions' | 'list'>,
): Promise<Setup | null> {
  switch (languageOfPath(file)) {
    case 'python':
      return pytestFixture(file, test, lines, failingLine, code);
    case 'java':
    case 'kotlin':
      return junitSetup(file, lines, code);
    default:
      return null;
  }
}

const FIXTURE_DECORATOR = /^\s*@(?:pytest\.)?fixture\b/;

async function pytestFixture(
  file: string,
  test: FunctionSpan,
  lines: readonly string[],
  failingLine: string,
  code: Pick<RevisionCode, 'read' | 'functions' | 'list'>,
): Promise<Setup | null> {
  const params = parametersOf(lines.slice(test.lines.start - 1, test.lines.end));
  if (params.length === 0) return null;
  // The parameter the failing line uses first, then the others in order.
  const ordered = [...params].sort((a, b) => Number(wordIn(failingLine, b)) - Number(wordIn(failingLine, a)));
  const paths = new Set(await code.list());
  const files = [file, ...conftestsOf(file).filter((p) => paths.has(p))];
  for (const param of ordered) {
    for (const path of files) {
      const text = path === file ? lines : await linesOf(code, path);
      if (text === null) continue;
      const span = (await code.functions(path)).find(
        (s) => simpleName(s.name) === param && s.kind === 'function' && isFixture(s, text),
      );
      if (span !== undefined)
        return { file: path, span: { name: span.name, lines: span.lines }, how: 'the fixture' };
    }
  }
  return null;
}

function isFixture(span: CodeSpan, lines: readonly string[]): boolean {
  return lines.slice(span.lines.start - 1, span.lines.end).some((l) => FIXTURE_DECORATOR.test(l));
}

/** `tests/api/test_x.py` → `tests/api/conftest.py`, `tests/conftest.py`, `conftest.py` (nearest first). */
export function conftestsOf(file: string): string[] {
  const parts = file.split('/').slice(0, -1);
  const out: string[] = [];
  for (let i = parts.length; i >= 0; i--) out.push([...parts.slice(0, i), 'conftest.py'].join('/'));
  return out;
}

/** The parameter names of the first `def` in these lines (annotations, defaults, `self`, `*args` left out). */
export function parametersOf(lines: readonly string[]): string[] {
  const start = lines.findIndex((l) => /^\s*(?:async\s+)?def\s+\w+\s*\(/.test(l));
  if (start === -1) return [];
  const text = lines.slice(start).join('\n');
  const open = text.indexOf('(');
  let depth = 0;
  let close = -1;
  for (let i = open; i < text.length; i++) {
    if ('([{'.includes(text[i] as string)) depth++;
    else if (')]}'.includes(text[i] as string) && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close === -1) return [];
  const params: string[] = [];
  let part = '';
  depth = 0;
  for (const ch of `${text.slice(open + 1, close)},`) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      const name = /^\s*([A-Za-z_]\w*)/.exec(part)?.[1];
      if (name !== undefined && name !== 'self' && name !== 'cls') params.push(name);
      part = '';
    } else part += ch;
  }
  return params;
}

const JUNIT_SETUP = /^\s*@(?:BeforeEach|Before|BeforeAll|BeforeClass)\b/;

async function junitSetup(
  file: string,
  lines: readonly string[],
  code: Pick<RevisionCode, 'functions'>,
): Promise<Setup | null> {
  const spans = (await code.functions(file)).filter((s) => s.kind === 'method' || s.kind === 'function');
  const setup = spans.find((s) =>
    lines.slice(s.lines.start - 1, s.lines.end).some((l) => JUNIT_SETUP.test(l)),
  );
  return setup === undefined
    ? null
    : { file, span: { name: setup.name, lines: setup.lines }, how: 'the setup method' };
}
