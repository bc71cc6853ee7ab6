import { z } from 'zod';

/**
 * The JUnit XML elements we read, as fast-xml-parser hands them over (see parse.ts for the
 * parser options: attributes prefixed with '@', text under '#text', repeatable elements always
 * arrays). There is no single JUnit schema: Surefire's (surefire-test-report-3.0.xsd) is the
 * richest, pytest, jest-junit, vitest and go-junit-report write subsets with their own
 * attributes. Everything is optional and unknown attributes pass through.
 */

/** Elements whose text is all we want; an element with no attributes may arrive as a bare string. */
const textOnly = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess((value) => (typeof value === 'string' ? { '#text': value } : value), z.looseObject(shape));

export const JunitText = textOnly({ '#text': z.string().optional() });
export type JunitText = z.infer<typeof JunitText>;

export const JunitProperty = textOnly({
  '@name': z.string().optional(),
  '@value': z.string().optional(),
  '#text': z.string().optional(),
});
export type JunitProperty = z.infer<typeof JunitProperty>;

export const JunitProperties = textOnly({ property: z.array(JunitProperty).optional() });
export type JunitProperties = z.infer<typeof JunitProperties>;

/**
 * `<failure>`, `<error>` and Surefire's `<rerunFailure>`/`<rerunError>`/`<flakyFailure>`/
 * `<flakyError>`. The trace is the element text, except in Surefire's rerun/flaky elements,
 * which nest it in `<stackTrace>` next to that run's own output.
 */
export const JunitProblem = textOnly({
  '@message': z.string().optional(),
  '@type': z.string().optional(),
  '#text': z.string().optional(),
  stackTrace: z.array(JunitText).optional(),
  'system-out': z.array(JunitText).optional(),
  'system-err': z.array(JunitText).optional(),
});
export type JunitProblem = z.infer<typeof JunitProblem>;

export const JunitTestCase = textOnly({
  '@name': z.string().optional(),
  '@classname': z.string().optional(),
  '@time': z.string().optional(),
  '@file': z.string().optional(),
  '@line': z.string().optional(),
  failure: z.array(JunitProblem).optional(),
  error: z.array(JunitProblem).optional(),
  skipped: z.array(JunitText).optional(),
  rerunFailure: z.array(JunitProblem).optional(),
  rerunError: z.array(JunitProblem).optional(),
  flakyFailure: z.array(JunitProblem).optional(),
  flakyError: z.array(JunitProblem).optional(),
  properties: z.array(JunitProperties).optional(),
  'system-out': z.array(JunitText).optional(),
  'system-err': z.array(JunitText).optional(),
});
export type JunitTestCase = z.infer<typeof JunitTestCase>;

const suiteShape = {
  '@name': z.string().optional(),
  '@hostname': z.string().optional(),
  '@timestamp': z.string().optional(),
  properties: z.array(JunitProperties).optional(),
  testcase: z.array(JunitTestCase).optional(),
  'system-out': z.array(JunitText).optional(),
  'system-err': z.array(JunitText).optional(),
};

export interface JunitTestSuite extends z.infer<z.ZodObject<typeof suiteShape>> {
  /** Suites nest: Ant/JUnit 5 per class inside a module, jest per describe block in some reporters. */
  testsuite?: JunitTestSuite[] | undefined;
}

export const JunitTestSuite: z.ZodType<JunitTestSuite> = textOnly({
  ...suiteShape,
  get testsuite() {
    return z.array(JunitTestSuite).optional();
  },
});

/** `<testsuites>` root (pytest, jest, vitest, go-junit-report) or a bare `<testsuite>` (Surefire). */
export const JunitDocument = z.union([
  z.object({
    testsuites: textOnly({ '@name': z.string().optional(), testsuite: z.array(JunitTestSuite).optional() }),
  }),
  z.object({ testsuite: z.array(JunitTestSuite) }),
]);
export type JunitDocument = z.infer<typeof JunitDocument>;
