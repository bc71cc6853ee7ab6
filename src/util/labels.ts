import type { RootCause } from '../schemas/index.ts';

/** The root-cause categories in words, the same on the report page and in Gerrit. */
export const CATEGORY_LABEL: Record<RootCause, string> = {
  code_regression: 'code regression',
  stale_test_expectation: 'stale test expectation',
  fixture_or_mock: 'test fixture or mock',
  environment: 'environment',
  flaky: 'flaky test',
  pre_existing: 'pre-existing failure',
  need_evidence: 'root cause not decided',
};
