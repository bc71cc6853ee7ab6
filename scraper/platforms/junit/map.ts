import { emptyFailure, type RawAttachment, type RawFailure } from '../../raw.ts';
import type { JunitProblem, JunitProperties, JunitTestCase, JunitTestSuite, JunitText } from './schema.ts';

/** One test case with the suites that hold it, innermost last. */
export interface LocatedCase {
  testcase: JunitTestCase;
  suites: JunitTestSuite[];
}

/** Every test case of a file in document order (a suite's own cases, then its nested suites). */
export function listCases(suites: readonly JunitTestSuite[], parents: JunitTestSuite[] = []): LocatedCase[] {
  const cases: LocatedCase[] = [];
  for (const suite of suites) {
    const path = [...parents, suite];
    for (const testcase of suite.testcase ?? []) cases.push({ testcase, suites: path });
    cases.push(...listCases(suite.testsuite ?? [], path));
  }
  return cases;
}

export function isFailure(testcase: JunitTestCase): boolean {
  return (testcase.failure?.length ?? 0) + (testcase.error?.length ?? 0) > 0;
}

/** Neither failed nor skipped: a pass (a flaky pass too), which history needs to see flips. */
export function isPass(testcase: JunitTestCase): boolean {
  return !isFailure(testcase) && (testcase.skipped?.length ?? 0) === 0;
}

/** Passed, but only after Surefire re-ran it (rerunFailingTestsCount): flaky, not failed. */
export function isFlakyPass(testcase: JunitTestCase): boolean {
  return (
    !isFailure(testcase) && (testcase.flakyFailure?.length ?? 0) + (testcase.flakyError?.length ?? 0) > 0
  );
}

/**
 * Identity of a case: `classname.name` (Surefire, pytest). pytest writes `classname=""` for a
 * module that failed to import, whose name is then the module: the name alone. Reporters that
 * write no classname at all are keyed under their suite.
 */
export function caseKey({ testcase, suites }: LocatedCase): string {
  const name = testcase['@name'] ?? '';
  const owner = testcase['@classname'] ?? suites.at(-1)?.['@name'] ?? '';
  return owner === '' ? name : `${owner}.${name}`;
}

/**
 * One failed (`<failure>`) or broken (`<error>`) test case as a RawFailure. `url` is the report
 * file's URL with a `#testcase=` anchor (JUnit has no per-test page). A case may carry several
 * failure/error elements (jest-junit: one per failed expectation; pytest: a call failure plus a
 * teardown error): the first one gives message and category, the trace keeps them all.
 */
export function toRawFailure(located: LocatedCase, url: string): RawFailure {
  const { testcase, suites } = located;
  const name = testcase['@name'] ?? '';
  const classname = testcase['@classname'] ?? null;
  const suiteName = suites.at(-1)?.['@name'] ?? null;
  const failures = testcase.failure ?? [];
  const errors = testcase.error ?? [];
  const primary = failures[0] ?? errors[0];
  const warnings: string[] = [];
  if (name === '') warnings.push('test case has no name attribute');
  if (classname === null) warnings.push('test case has no classname attribute');
  const traces = [...failures, ...errors].map(problemTrace).filter((t): t is string => t !== null);

  return {
    ...emptyFailure({
      name,
      key: caseKey(located),
      status: failures.length > 0 ? 'failed' : 'broken',
      url,
    }),
    full_name: caseKey(located),
    // Surefire, vitest and go-junit-report name the suite after the class/file: say it once.
    reached_by: [suiteName, classname].filter(
      (title, i, all): title is string => title !== null && title !== '' && (i === 0 || title !== all[i - 1]),
    ),
    report_category: failures.length > 0 ? 'failure' : 'error',
    message: primary === undefined ? null : problemMessage(primary),
    trace: traces.length > 0 ? traces.join('\n\n') : null,
    attachments: attachmentsOf(testcase, suites),
    labels: labelsOf(testcase, suiteName),
    retries: [
      ...(testcase.rerunFailure ?? []).map((p) => ({ status: 'failed', message: problemMessage(p) })),
      ...(testcase.rerunError ?? []).map((p) => ({ status: 'broken', message: problemMessage(p) })),
    ],
    flaky: (testcase.flakyFailure?.length ?? 0) + (testcase.flakyError?.length ?? 0) > 0,
    duration_ms: durationMs(testcase['@time'], warnings),
    source: { kind: 'page_data', text: JSON.stringify(testcase) },
    warnings,
  };
}

/**
 * go-junit-report writes this placeholder as every failure's message; the test's own output
 * (the element text) says what failed.
 */
const PLACEHOLDER_MESSAGES = new Set(['Failed']);

/**
 * First line of the message attribute. jest-junit writes no message and go-junit-report a bare
 * "Failed": the trace's first line, then the exception type, is the next best thing.
 */
function problemMessage(problem: JunitProblem): string | null {
  const attribute = firstLine(problem['@message']);
  const fromTrace = firstLine(problemTrace(problem) ?? undefined);
  if (attribute !== null && !(PLACEHOLDER_MESSAGES.has(attribute) && fromTrace !== null)) return attribute;
  return fromTrace ?? firstLine(problem['@type']) ?? attribute;
}

function problemTrace(problem: JunitProblem): string | null {
  const nested = (problem.stackTrace ?? []).map(textOf).filter((t): t is string => t !== null);
  if (nested.length > 0) return nested.join('\n');
  return textOf(problem);
}

function firstLine(text: string | undefined): string | null {
  const line = text
    ?.split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line ?? null;
}

function textOf(node: JunitText): string | null {
  const text = node['#text']?.replace(/^\s*\n/, '').trimEnd();
  return text === undefined || text.trim() === '' ? null : text;
}

/**
 * Captured output: the case's own, each re-run's (Surefire nests it in rerun elements), then
 * the enclosing suites' (Ant and JUnit 5's legacy reporter write output per suite only).
 */
function attachmentsOf(testcase: JunitTestCase, suites: readonly JunitTestSuite[]): RawAttachment[] {
  const attachments: RawAttachment[] = [];
  const add = (name: string, nodes: readonly JunitText[] | undefined) => {
    const texts = (nodes ?? []).map(textOf).filter((t): t is string => t !== null);
    texts.forEach((text, i) => {
      attachments.push({
        name: texts.length > 1 ? `${name} (${i + 1})` : name,
        media_type: 'text/plain',
        body: Buffer.from(text, 'utf8'),
      });
    });
  };
  add('system-out', testcase['system-out']);
  add('system-err', testcase['system-err']);
  const reruns = [...(testcase.rerunFailure ?? []), ...(testcase.rerunError ?? [])];
  reruns.forEach((rerun, i) => {
    add(`rerun ${i + 1} system-out`, rerun['system-out']);
    add(`rerun ${i + 1} system-err`, rerun['system-err']);
  });
  for (const suite of suites) {
    const label = suite['@name'] ? `testsuite ${suite['@name']}` : 'testsuite';
    add(`${label} system-out`, suite['system-out']);
    add(`${label} system-err`, suite['system-err']);
  }
  return attachments;
}

/** Where the runner says the test is, and the case's own properties (pytest record_property). */
function labelsOf(testcase: JunitTestCase, suiteName: string | null): Array<{ name: string; value: string }> {
  const labels: Array<{ name: string; value: string }> = [];
  if (suiteName) labels.push({ name: 'suite', value: suiteName });
  if (testcase['@file']) labels.push({ name: 'file', value: testcase['@file'] });
  if (testcase['@line']) labels.push({ name: 'line', value: testcase['@line'] });
  labels.push(...propertiesOf(testcase.properties));
  return labels;
}

export function propertiesOf(
  properties: readonly JunitProperties[] | undefined,
): Array<{ name: string; value: string }> {
  return (properties ?? []).flatMap((group) =>
    (group.property ?? []).flatMap((p) => {
      const name = p['@name'];
      // Surefire and pytest use value=; some reporters put long values in the element text.
      const value = p['@value'] ?? p['#text']?.trim();
      return name === undefined || value === undefined ? [] : [{ name, value }];
    }),
  );
}

/** Seconds as the runner wrote them; Surefire in some locales writes "1,234.5". */
function durationMs(time: string | undefined, warnings: string[]): number | null {
  if (time === undefined || time.trim() === '') return null;
  const seconds = Number(time.replace(/,/g, ''));
  if (!Number.isFinite(seconds)) {
    warnings.push(`test case time "${time}" is not a number of seconds`);
    return null;
  }
  return Math.round(seconds * 1000);
}

/**
 * Suite-level properties that describe the environment. Surefire dumps every JVM system
 * property (user.home, sun.java.command with its arguments…), so only names worth a diagnosis
 * and safe to show are kept.
 */
const ENVIRONMENT_PROPERTIES = new Set([
  'java.version',
  'java.vendor',
  'java.runtime.name',
  'java.runtime.version',
  'java.vm.name',
  'java.vm.version',
  'java.specification.version',
  'os.name',
  'os.version',
  'os.arch',
  'file.encoding',
  'sun.jnu.encoding',
  'user.timezone',
  'user.language',
  'user.country',
  'maven.version',
  'maven.build.version',
  'surefire.version',
  'junit.version',
  'go.version',
  'python.version',
  'node.version',
]);

/** Environment the files state, each distinct name/value once, in first-seen order. */
export function environmentOf(suites: readonly JunitTestSuite[]): Array<{ name: string; value: string }> {
  const seen = new Set<string>();
  const env: Array<{ name: string; value: string }> = [];
  const add = (name: string, value: string | undefined) => {
    const v = value?.trim();
    if (v === undefined || v === '' || seen.has(`${name}\u0000${v}`)) return;
    seen.add(`${name}\u0000${v}`);
    env.push({ name, value: v });
  };
  const walk = (list: readonly JunitTestSuite[]) => {
    for (const suite of list) {
      // pytest, vitest and go-junit-report state the machine and start time on the suite itself;
      // one start time says when the run happened, every suite's would only add noise.
      add('hostname', suite['@hostname']);
      if (!env.some((e) => e.name === 'timestamp')) add('timestamp', suite['@timestamp']);
      for (const p of propertiesOf(suite.properties))
        if (ENVIRONMENT_PROPERTIES.has(p.name)) add(p.name, p.value);
      walk(suite.testsuite ?? []);
    }
  };
  walk(suites);
  return env;
}
