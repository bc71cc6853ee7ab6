import { type FrameFields, TraceBuilder } from './trace-builder.ts';
import type { Dialect, ParsedTrace, StackHints } from './types.ts';

/** GOROOT installs (official tarball, distro packages, setup-go, gotip sdk), the module cache, vendor/. */
export const GO_LIBRARY_PATTERNS: readonly RegExp[] = [
  /(?:^|\/)usr\/local\/go\/src\//,
  /(?:^|\/)usr\/lib\/go(?:-[\d.]+)?\/src\//,
  /(?:^|\/)sdk\/go[\d.]+\/src\//,
  /(?:^|\/)hostedtoolcache\/go\//,
  /(?:^|\/)Program Files\/Go\/src\//i,
  /(?:^|\/)go\/pkg\/mod\//,
  /(?:^|\/)pkg\/mod\/[^/]+\/[^@/]+@v/,
  /(?:^|\/)vendor\//,
  /^_testmain\.go$/,
];

/** Runtime and testing functions are library even when their file is not printed where expected. */
const GO_LIBRARY_FUNCTIONS = /^(?:runtime\.|testing\.|panic$)/;

const GOROUTINE = /^\s*goroutine \d+ \[/;
/** `\t/path/file.go:42 +0x1d` (the offset is absent for inlined frames). */
const LOCATION = /^\s*(\S+\.go):(\d+)(?:\s+\+0x[0-9a-fA-F]+)?\s*$/;
/** `    cart_test.go:12: expected 3, got 2` from t.Error/t.Fatal. */
const TEST_LOG = /^\s*([\w.\-/]+\.go):(\d+):(?:\s.*)?$/;
/** `=== RUN   TestSub/zero`, `--- FAIL: TestTotal (0.00s)`: the test that logs belong to. */
const TEST_HEADER = /^\s*(?:=== (?:RUN|CONT|PAUSE|NAME)|--- FAIL:)\s+(\S+)/;

export const go: Dialect = {
  language: 'go',
  parse: parseGo,
  isLibrary: (frame) =>
    GO_LIBRARY_PATTERNS.some((p) => p.test(frame.file)) || GO_LIBRARY_FUNCTIONS.test(frame.qualified ?? ''),
  isTestCode: (frame) => /_test\.go$/.test(frame.file),
  isTestFunction: (frame) =>
    /(?:^|\.)(?:Test|Benchmark|Fuzz)(?:[A-Z_0-9]|$|\.|\/)/.test(frame.function ?? ''),
};

function parseGo(lines: readonly string[], hints?: StackHints): ParsedTrace {
  const builder = new TraceBuilder();
  let pendingFunction: string | null = null;
  // A JUnit <failure> from go-junit-report holds the test's log lines without the `=== RUN`
  // header; the report's test name says whose lines they are (the locator checks the line is in it).
  let currentTest: string | null = hints?.testName ?? null;
  for (const line of lines) {
    if (GOROUTINE.test(line)) {
      builder.startSection();
      pendingFunction = null;
      continue;
    }
    currentTest = TEST_HEADER.exec(line)?.[1] ?? currentTest;
    const location = LOCATION.exec(line);
    const log = location ? null : TEST_LOG.exec(line);
    if (location?.[1]) {
      builder.add(goFrame(location[1], Number(location[2]), pendingFunction));
      pendingFunction = null;
    } else if (log?.[1]) {
      builder.add({ ...goFrame(log[1], Number(log[2]), null), function: currentTest });
    } else {
      pendingFunction = functionName(line);
    }
  }
  return builder.build({ innermost: 'first', rootCause: 'first' });
}

function goFrame(file: string, line: number, qualified: string | null): FrameFields {
  const fn = qualified === null ? null : shortName(qualified);
  return { rawFile: file, line, column: null, function: fn, qualified, snippet: null };
}

/**
 * `example.com/shop/cart.(*Cart).Add(...)`, `created by testing.(*T).Run in goroutine 1`:
 * the function a following location line belongs to, without its arguments.
 */
function functionName(line: string): string | null {
  const text = line
    .trim()
    .replace(/^created by\s+/, '')
    .replace(/\s+in goroutine \d+$/, '');
  const name = text.endsWith(')') ? text.slice(0, argumentsStart(text)) : text;
  return /^[^\s]+$/.test(name) && !name.includes(':') ? name : null;
}

/** Index of the `(` opening the trailing argument list, skipping receivers like `(*Cart)`. */
function argumentsStart(text: string): number {
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i -= 1) {
    if (text[i] === ')') depth += 1;
    if (text[i] === '(') depth -= 1;
    if (depth === 0) return i;
  }
  return text.length;
}

/** Drops the import path: `example.com/shop/cart.(*Cart).Add` → `cart.(*Cart).Add`. */
function shortName(qualified: string): string {
  const firstBracket = qualified.search(/[([]/);
  const end = firstBracket < 0 ? qualified.length : firstBracket;
  return qualified.slice(qualified.lastIndexOf('/', end) + 1);
}
