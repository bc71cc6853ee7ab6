import { describe, expect, it } from 'vitest';
import { crashPointFromEnv } from '../../src/service/index.ts';

describe('the test-only crash point', () => {
  it('is off unless CI_DIAGNOSIS_CRASH_AFTER names a stage', () => {
    expect(crashPointFromEnv({})).toBeNull();
    expect(crashPointFromEnv({ CI_DIAGNOSIS_CRASH_AFTER: '' })).toBeNull();
    expect(crashPointFromEnv({ CI_DIAGNOSIS_CRASH_AFTER: 'publish' })).toBe('publish');
  });

  it('refuses a value that names no stage, listing the stages', () => {
    expect(() => crashPointFromEnv({ CI_DIAGNOSIS_CRASH_AFTER: 'Publish' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining(
          'expected one of scrape, context, locate, diagnose, check, publish, page',
        ),
      }),
    );
  });
});
