import { DiagnosisError, describeError } from '../../../src/errors/index.ts';
import type { ReportSource } from '../../source/report-source.ts';
import type { PlatformAdapter, ScrapeContext, ScrapeSummary } from '../types.ts';
import { type ReportFile, readReportFile, reportFiles } from './files.ts';
import { caseKey, environmentOf, isFailure, isFlakyPass, isPass, listCases, toRawFailure } from './map.ts';
import { junitRoot, type ParsedJunit, parseJunit } from './parse.ts';

const JUNIT_ROOTS = new Set(['testsuites', 'testsuite']);

/** How many XML files of a folder detect() opens before deciding it is not JUnit. */
const DETECT_SAMPLE = 5;

/**
 * JUnit XML as Surefire, Gradle, pytest --junitxml, jest-junit, vitest and go-junit-report
 * write it. There are no pages to walk: the file is the data, so the only mode is 'file'.
 */
export const junitAdapter: PlatformAdapter = {
  platform: 'junit',
  modes: ['file'],

  async detect(source: ReportSource): Promise<boolean> {
    const { files } = await reportFiles(source);
    for (const file of files.slice(0, DETECT_SAMPLE)) {
      const root = junitRoot((await readReportFile(source, file)).body);
      if (root !== null && JUNIT_ROOTS.has(root)) return true;
    }
    return false;
  },

  async scrape(ctx: ScrapeContext): Promise<ScrapeSummary> {
    const { files, folder } = await reportFiles(ctx.source);
    if (files.length === 0) {
      throw new DiagnosisError('NOT_A_REPORT', `${ctx.input} holds no XML files, so no JUnit report`, {
        input: ctx.input,
      });
    }
    const warnings: string[] = [];
    const notJunit: string[] = [];
    const problems: DiagnosisError[] = [];
    const environment = new Map<string, { name: string; value: string }>();
    const flakyPasses: string[] = [];
    const passed: string[] = [];
    let parsedFiles = 0;
    let testCases = 0;
    let order = 0;

    ctx.progress.start(files.length, 'JUnit files');
    for (const file of files) {
      const parsed = await readJunit(ctx, file, folder, { warnings, notJunit, problems });
      ctx.progress.tick(file.url);
      if (parsed === null) continue;
      parsedFiles++;
      for (const env of environmentOf(parsed.suites)) {
        // One start time for the whole input: the first file's.
        if (env.name === 'timestamp' && [...environment.values()].some((e) => e.name === 'timestamp'))
          continue;
        environment.set(`${env.name}\u0000${env.value}`, env);
      }
      const cases = listCases(parsed.suites);
      testCases += cases.length;
      const anchors = new Map<string, number>();
      for (const located of cases) {
        if (isFlakyPass(located.testcase)) flakyPasses.push(caseKey(located));
        if (isPass(located.testcase)) passed.push(caseKey(located));
        if (!isFailure(located.testcase)) continue;
        await ctx.emit(
          order++,
          toRawFailure(located, `${file.url}#${uniqueAnchor(anchors, caseKey(located))}`),
        );
      }
    }
    ctx.progress.done();

    if (parsedFiles === 0) {
      // A folder whose only JUnit file is broken: that file's own error says most.
      if (problems.length === 1 && notJunit.length === 0 && problems[0] !== undefined) throw problems[0];
      throw new DiagnosisError(
        'NOT_A_REPORT',
        `${ctx.input} holds no readable JUnit XML: ${[...notJunit.map((u) => `${u} is not JUnit`), ...problems.map((p) => p.message)].join('; ')}`,
        { input: ctx.input },
      );
    }
    if (testCases === 0) {
      throw new DiagnosisError('EMPTY_REPORT', `JUnit report ${ctx.input} has no test cases`, {
        input: ctx.input,
      });
    }
    if (notJunit.length > 0)
      warnings.push(`skipped XML files that are not JUnit reports: ${notJunit.join(', ')}`);
    if (flakyPasses.length > 0) {
      warnings.push(
        `${flakyPasses.length} test(s) passed only when re-run (flaky): ${flakyPasses.slice(0, 10).join(', ')}${flakyPasses.length > 10 ? ', …' : ''}`,
      );
    }
    return { environment: [...environment.values()], warnings, mode: 'file', failures: order, passed };
  },
};

/**
 * Reads and parses one file. For a single file every error is the caller's; in a folder a
 * non-JUnit XML (failsafe-summary.xml, testng-results.xml) is skipped and a broken file
 * becomes a warning, so one truncated file does not hide the others' failures.
 */
async function readJunit(
  ctx: ScrapeContext,
  file: ReportFile,
  folder: boolean,
  out: { warnings: string[]; notJunit: string[]; problems: DiagnosisError[] },
): Promise<ParsedJunit | null> {
  try {
    const fetched = await readReportFile(ctx.source, file);
    return parseJunit(fetched.body, file.url, fetched.contentType);
  } catch (err: unknown) {
    if (!folder || !(err instanceof DiagnosisError)) throw err;
    if (err.code === 'NOT_A_REPORT') {
      ctx.log.info({ file: file.url }, 'skipping XML file that is not JUnit');
      out.notJunit.push(file.url);
    } else {
      ctx.log.warn({ file: file.url, err: describeError(err) }, 'skipping unreadable JUnit file');
      out.warnings.push(err.message);
      out.problems.push(err);
    }
    return null;
  }
}

/** `testcase=<key>`, made unique within the file for repeated names (re-run or parametrised without ids). */
function uniqueAnchor(seen: Map<string, number>, key: string): string {
  const count = (seen.get(key) ?? 0) + 1;
  seen.set(key, count);
  const anchor = `testcase=${encodeURIComponent(key)}`;
  return count === 1 ? anchor : `${anchor}&n=${count}`;
}
