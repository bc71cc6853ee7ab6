import { normaliseReportPath } from './path.ts';
import type { Frame, StackHints } from './types.ts';

/** The report's test identity reduced to what frames can be compared with. */
export interface TestIdentity {
  /** Bare function/method names, e.g. `totalIsSum`, `test_total`, `TestSub`. */
  names: string[];
  /** Path stems without extension, e.g. `tests/test_cart`, `com/example/billing/InvoiceTest`. */
  files: string[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A source path inside a full name, ended by a node-id separator so `com.example.go.Foo` is no path. */
const SOURCE_PATH = /[\w@.\-/\\]+\.(?:py|go|java|kt|kts|scala|groovy|[cm]?[jt]sx?)(?=::|#|\s|$)/g;

export function resolveTestIdentity(hints: StackHints | undefined): TestIdentity {
  const names = [hints?.testName, hints?.testFullName].flatMap((n) => (n ? [bareTestName(n)] : []));
  const files = [
    ...(hints?.testFile ? [stem(normaliseReportPath(hints.testFile).file)] : []),
    ...(hints?.testFullName ? filesFromFullName(hints.testFullName) : []),
  ];
  return { names: names.filter((n) => IDENTIFIER.test(n)), files: files.filter((f) => f.length > 0) };
}

/**
 * `totalIsSum()`, `test_total[1-2]`, `TestSub/zero`, `tests/test_cart.py::test_total`,
 * `example.com/shop/cart.TestSub/zero` and `com.example.InvoiceTest.totalIsSum` all name one
 * function: keep just that name.
 */
function bareTestName(name: string): string {
  const noArgs = name.trim().replace(/[([].*$/s, '');
  const afterNodeId = noArgs.split(/::|#/).pop() ?? noArgs;
  // Go subtests add `/sub` after the test; Go package paths put `/` before the dotted name.
  const segments = afterNodeId.split('/');
  const dotted = segments.filter((s) => s.includes('.')).pop() ?? segments[0] ?? '';
  return (dotted.split('.').pop() ?? dotted).trim();
}

function filesFromFullName(fullName: string): string[] {
  const paths = [...fullName.matchAll(SOURCE_PATH)].map((m) => stem(normaliseReportPath(m[0]).file));
  if (paths.length > 0) return paths;
  // A dotted JUnit/pytest class name: package path plus outer class (or module) before the test name.
  const dotted = /^([\w$]+(?:\.[\w$]+)+)\.[\w$]+(?:\(.*\))?$/.exec(fullName.trim());
  const owner = dotted?.[1]?.replace(/\$.*$/, '');
  return owner ? [owner.replace(/\./g, '/')] : [];
}

/** Path without its last extension, so `InvoiceTest.java` and class `InvoiceTest` compare equal. */
export function stem(path: string): string {
  return path.replace(/\.[\w]+$/, '');
}

/** Either path ends with the other at a `/` boundary: short report paths match long CI paths. */
export function pathsOverlap(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return false;
  return long === short || long.endsWith(`/${short}`);
}

export function fileMatchesTest(frame: Frame, identity: TestIdentity): boolean {
  const frameStem = stem(frame.file);
  return identity.files.some((f) => pathsOverlap(frameStem, f));
}

/**
 * A segment of the function name equals the test name: `InvoiceTest.totalIsSum`,
 * `cart.TestSub.func1`, `TestSub/zero`.
 */
export function functionMatchesTest(frame: Frame, identity: TestIdentity): boolean {
  if (!frame.function || identity.names.length === 0) return false;
  const segments = frame.function.split(/[./]/);
  return identity.names.some((name) => segments.includes(name));
}

/** Package prefixes match the qualified symbol; path fragments match anywhere at a segment start. */
export function matchesAnyPrefix(frame: Frame, prefixes: readonly string[]): boolean {
  return prefixes.some(
    (p) =>
      p.length > 0 &&
      ((frame.qualified?.startsWith(p) ?? false) || frame.file.startsWith(p) || frame.file.includes(`/${p}`)),
  );
}
