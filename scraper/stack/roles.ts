import type { LocationRole } from '../../src/schemas/facts.ts';
import { fileMatchesTest, functionMatchesTest, matchesAnyPrefix, resolveTestIdentity } from './hints.ts';
import type { Dialect, Frame, ParsedTrace, StackHints } from './types.ts';

/** What decides a frame's role: whose code it is and whether it is the test's. */
export interface FrameTraits {
  library: boolean;
  project: boolean;
  /** In the test's file or class (by hint or convention): never the failure. */
  testCode: boolean;
  /** Named like the report's test. */
  namedAsTest: boolean;
  /** Named like a test entry point by the language's convention. */
  conventionalTest: boolean;
}

export function classifyFrames(
  frames: readonly Frame[],
  dialect: Dialect,
  hints?: StackHints,
): FrameTraits[] {
  const identity = resolveTestIdentity(hints);
  const projectPrefixes = hints?.projectPrefixes ?? [];
  const libraryPrefixes = hints?.libraryPrefixes ?? [];
  return frames.map((frame) => {
    const library = dialect.isLibrary(frame) || matchesAnyPrefix(frame, libraryPrefixes);
    const namedAsTest = !library && functionMatchesTest(frame, identity);
    // A name alone marks test code only when the report gave no file to confirm it against.
    const testCode =
      !library &&
      (dialect.isTestCode(frame) ||
        fileMatchesTest(frame, identity) ||
        (namedAsTest && identity.files.length === 0));
    return {
      library,
      project: !library && (projectPrefixes.length === 0 || matchesAnyPrefix(frame, projectPrefixes)),
      testCode,
      namedAsTest: namedAsTest && testCode,
      conventionalTest: testCode && dialect.isTestFunction(frame),
    };
  });
}

/**
 * `test`: the test's own frame; `failure`: the project frame closest to the raise that is not
 * test code and not a caller of the test; everything else `frame`.
 */
export function assignRoles(trace: ParsedTrace, traits: readonly FrameTraits[]): LocationRole[] {
  const roles: LocationRole[] = trace.frames.map(() => 'frame');
  const test = pickTestFrame(trace, traits);
  const failure = pickFailureFrame(trace, traits, test);
  if (test !== undefined) roles[test] = 'test';
  if (failure !== undefined) roles[failure] = 'failure';
  return roles;
}

function pickTestFrame(trace: ParsedTrace, traits: readonly FrameTraits[]): number | undefined {
  const order = trace.searchOrder;
  const named = order.find((i) => traits[i]?.namedAsTest);
  if (named !== undefined) return named;
  const conventional = order.find((i) => traits[i]?.conventionalTest);
  if (conventional !== undefined) return conventional;
  // Otherwise the outermost test-code frame of the first block that has any: the test method
  // calls its helpers and lambdas, so it sits below them.
  const first = order.find((i) => traits[i]?.testCode);
  if (first === undefined) return undefined;
  const section = trace.frames[first]?.section;
  return order.filter((i) => traits[i]?.testCode && trace.frames[i]?.section === section).pop();
}

function pickFailureFrame(
  trace: ParsedTrace,
  traits: readonly FrameTraits[],
  test: number | undefined,
): number | undefined {
  const testSection = test === undefined ? undefined : trace.frames[test]?.section;
  const testPosition = test === undefined ? -1 : trace.failureOrder.indexOf(test);
  return trace.failureOrder.find((i, position) => {
    const t = traits[i];
    if (!t?.project || t.testCode) return false;
    // Frames that called the test (runners, base classes) are not where the error was raised.
    const callerOfTest =
      trace.frames[i]?.section === testSection && testPosition >= 0 && position > testPosition;
    return !callerOfTest;
  });
}
