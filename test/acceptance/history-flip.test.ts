import { describe, expect, it } from 'vitest';
import { runCase } from './run-case.ts';

/**
 * A rerun of the same revision that passed, fed as history, is what tells a flaky test from a
 * regression: the reports list their passed tests, the history records them, triage sees the flip.
 * Real cases of the public corpus, one per report format.
 */
describe('a flip at one revision, from a rerun in the history', () => {
  it.each([
    ['nock-delay-timing', 'junit'],
    ['redis-background-recurring', 'allure2'],
  ])('%s (%s): flaky, because the same revision passed in the rerun', async (id) => {
    const { run, facts } = await runCase(id);
    expect(facts.run.passed_tests?.length).toBeGreaterThan(0);
    for (const f of run.failures) {
      expect([f.verdict, f.category]).toEqual(['flaky', 'flaky']);
      expect(f.triage?.signals.map((s) => s.detail).join('\n')).toMatch(/passed in 1 other run/);
    }
  });
});
