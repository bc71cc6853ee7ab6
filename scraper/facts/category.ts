import type { IssueCategory } from '../../src/schemas/index.ts';

/**
 * Tells build failures from test failures by what the report says. Build failures (code that
 * does not compile, dependencies that do not resolve) take a different channel later, so they
 * are checked first. Patterns are per toolchain; each names the tool whose wording it matches.
 */
const RULES: ReadonlyArray<{ category: IssueCategory; patterns: RegExp[] }> = [
  {
    category: 'dependency_resolution',
    patterns: [
      /\bModuleNotFoundError\b/, // Python
      /\bImportError: (No module named|cannot import name)/, // Python
      /Cannot find (module|package) ['"]/, // Node
      /\bERR_MODULE_NOT_FOUND\b/, // Node ESM
      /Failed to (resolve|load url) (import )?["']?/, // Vite / vitest
      /Could not (resolve|find) (dependencies|artifact)/, // Maven
      /cannot find package|no required module provides package/, // Go
    ],
  },
  {
    category: 'compilation_error',
    patterns: [
      /\b(SyntaxError|IndentationError|TabError)\b/, // Python, JS
      /COMPILATION ERROR|cannot find symbol|error: ';' expected|incompatible types/, // javac / Maven
      /\berror TS\d{4}:/, // tsc
      /Transform failed with \d+ error|Failed to parse source/, // esbuild / vite
      /\[build failed\]|undefined: \w+|syntax error: unexpected/, // go
    ],
  },
  {
    category: 'test_timeout',
    patterns: [
      /Test timed out in \d+ms/,
      /\bTimeout(Error|Exception)\b/,
      /timed? ?out after \d+/i,
      /Failed: Timeout/,
    ],
  },
  {
    category: 'test_assertion',
    patterns: [
      /\bAssertion(Error|FailedError)\b/,
      /\bComparisonFailure\b/,
      /^\s*E\s+assert /m,
      /expected .+ to /i,
    ],
  },
  {
    // An unexpected exception, even where the runner files it as a "failure" (pytest's JUnit XML).
    category: 'test_error',
    patterns: [/^\s*([\w$]+\.)*\w*(Error|Exception)\b/, /^panic: /m],
  },
];

export function classifyFailure(status: string, message: string | null, trace: string | null): IssueCategory {
  const text = `${message ?? ''}\n${(trace ?? '').slice(0, 4000)}`;
  for (const rule of RULES) {
    // The exception-type rule reads only the message head: a trace always names some exception.
    const subject = rule.category === 'test_error' ? (message ?? trace ?? '') : text;
    if (rule.patterns.some((p) => p.test(subject))) return rule.category;
  }
  // Allure: failed = an assertion did not hold; broken = an unexpected exception.
  if (status === 'failed') return 'test_assertion';
  if (status === 'broken' || status === 'error') return 'test_error';
  return 'unknown';
}
