import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../scraper/facts/index.ts';

describe('classifyFailure', () => {
  it.each([
    ['broken', "ModuleNotFoundError: No module named 'requests_oauthlib'", null, 'dependency_resolution'],
    ['broken', "Error: Cannot find module 'left-pad'", null, 'dependency_resolution'],
    [
      'failed',
      '[ERROR] Failed to execute goal: Could not resolve dependencies for project com.example:billing',
      null,
      'dependency_resolution',
    ],
    ['broken', 'SyntaxError: invalid syntax', null, 'compilation_error'],
    [
      'failed',
      'COMPILATION ERROR : /src/main/java/A.java:[3,5] cannot find symbol',
      null,
      'compilation_error',
    ],
    ['broken', "src/cart.ts(3,7): error TS2322: Type 'string' is not assignable", null, 'compilation_error'],
    ['broken', 'Error: Test timed out in 500ms.', null, 'test_timeout'],
    ['failed', 'AssertionError: expected 2690 to be 2290', null, 'test_assertion'],
    ['broken', "TypeError: Cannot read properties of undefined (reading 'country')", null, 'test_error'],
    ['failed', 'totals differ', null, 'test_assertion'],
    ['failed', "ValueError: unknown unit of measure: 'dozen'", null, 'test_error'],
    ['error', 'java.lang.IllegalStateException: Cannot convert invoice', null, 'test_error'],
    ['failed', 'panic: runtime error: invalid memory address or nil pointer dereference', null, 'test_error'],
    ['skipped', null, null, 'unknown'],
  ] as const)('%s "%s" → %s', (status, message, trace, expected) => {
    expect(classifyFailure(status, message, trace)).toBe(expected);
  });
});
