import { type FrameFields, TraceBuilder } from './trace-builder.ts';
import type { Dialect, Frame, ParsedTrace } from './types.ts';

/**
 * Packages whose frames are runtime or framework code, not the project's. Exported so callers
 * can see (and tests can pin) the defaults; projects add their own via `libraryPrefixes`.
 */
export const JAVA_LIBRARY_PACKAGES: readonly string[] = [
  'java.',
  'javax.',
  'jakarta.',
  'jdk.',
  'sun.',
  'com.sun.',
  'kotlin.',
  'kotlinx.',
  'scala.',
  'org.junit.',
  'junit.',
  'org.opentest4j.',
  'org.testng.',
  'org.apache.maven.',
  'org.gradle.',
  'worker.org.gradle.',
  'org.springframework.',
  'org.assertj.',
  'org.hamcrest.',
  'org.mockito.',
  'net.bytebuddy.',
  'io.qameta.allure.',
];

/** `at [module/]pkg.Class.method(File.java:42)`, tolerant of logback's `~[jar:ver]` tails. */
const FRAME = /^\s*at\s+([^\s(]+)\(([^)]*)\)/;
const CAUSED_BY = /^(\s*)Caused by:/;
const SUPPRESSED = /^(\s*)Suppressed:/;
const TEST_CLASS = /(?:Test|Tests|IT|TestCase)$/;

export const java: Dialect = {
  language: 'java',
  parse: parseJava,
  isLibrary: (frame) => isJavaLibrary(frame),
  isTestCode: (frame) => TEST_CLASS.test(outerClassName(frame)),
  isTestFunction: (frame) => /^test[A-Z_]/.test(methodName(frame)),
};

function parseJava(lines: readonly string[]): ParsedTrace {
  const builder = new TraceBuilder();
  // Causes printed deeper than the Suppressed: header that opened them belong to that suppressed chain.
  let suppressedIndent: number | null = null;
  for (const line of lines) {
    const suppressed = SUPPRESSED.exec(line);
    const caused = CAUSED_BY.exec(line);
    if (suppressed) {
      suppressedIndent = suppressed[1]?.length ?? 0;
      builder.startSection(true);
    } else if (caused) {
      const indent = caused[1]?.length ?? 0;
      if (suppressedIndent !== null && indent <= suppressedIndent) suppressedIndent = null;
      builder.startSection(suppressedIndent !== null);
    } else {
      const frame = parseFrameLine(line);
      if (frame) builder.add(frame);
    }
  }
  return builder.build({ innermost: 'first', rootCause: 'last' });
}

function parseFrameLine(line: string): FrameFields | null {
  const match = FRAME.exec(line);
  if (!match?.[1] || match[2] === undefined) return null;
  const symbol = match[1].slice(match[1].lastIndexOf('/') + 1);
  const dot = symbol.lastIndexOf('.');
  if (dot <= 0) return null;
  const className = symbol.slice(0, dot);
  const method = symbol.slice(dot + 1);
  const source = parseSource(match[2], className);
  return {
    rawFile: source.file,
    line: source.line,
    column: null,
    function: `${simpleName(className)}.${method}`,
    qualified: symbol,
    snippet: null,
  };
}

/** `Invoice.java:42` → package path + file; `Native Method`/`Unknown Source` → path guessed from the class. */
function parseSource(source: string, className: string): { file: string; line: number | null } {
  const packagePath = className.includes('.')
    ? `${className.slice(0, className.lastIndexOf('.')).replace(/\./g, '/')}/`
    : '';
  const match = /^([\w$.-]+\.\w+)(?::(\d+))?$/.exec(source.trim());
  if (match?.[1]) return { file: packagePath + match[1], line: match[2] ? Number(match[2]) : null };
  const outer = simpleName(className).split('$')[0] ?? className;
  return { file: `${packagePath}${outer}.java`, line: null };
}

function simpleName(className: string): string {
  return className.slice(className.lastIndexOf('.') + 1);
}

function methodName(frame: Frame): string {
  const fn = frame.function ?? '';
  return fn.slice(fn.lastIndexOf('.') + 1);
}

/** `Invoice$Pricer` → `Invoice`, so nested and lambda classes of a test class count as test code. */
function outerClassName(frame: Frame): string {
  const fn = frame.function ?? '';
  const className = fn.slice(0, Math.max(fn.lastIndexOf('.'), 0));
  return className.split('$')[0] ?? className;
}

function isJavaLibrary(frame: Frame): boolean {
  const symbol = frame.qualified ?? '';
  // Generated proxies and lambda forms have no source of their own.
  if (symbol.includes('$$') || symbol.includes('$Proxy')) return true;
  return JAVA_LIBRARY_PACKAGES.some((p) => symbol.startsWith(p));
}
