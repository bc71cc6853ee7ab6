import { describe, expect, it } from 'vitest';
import type { DiagnosisContext } from '../../src/context/index.ts';
import { type Checker, diagnoseRun, type Engine, NO_USAGE } from '../../src/diagnose/index.ts';
import type { DiagnosisDraft, Issue, Triage } from '../../src/schemas/index.ts';

const issue = (id: string): Issue => ({
  id,
  category: 'test_assertion',
  status: 'failed',
  summary: 's',
  test: { name: `t${id}`, full_name: null, key: id },
  url: `http://ci/${id}`,
  reached_by: [],
  facts: [{ type: 'error', value: 'AssertionError' }],
  locations: [],
  warnings: [],
  candidates: [],
});
const issues = ['1', '2', '3'].map(issue);
const ctx = { facts: { issues }, diff: [], revision: 'a'.repeat(40) } as unknown as DiagnosisContext;
const triage: Triage = {
  verdict: 'need_evidence',
  category: 'need_evidence',
  channel: 'test',
  signals: [],
  signature: 's',
};
const checker: Checker = {
  check: async () => [],
  degrade: async (d) => ({ draft: d, degraded: false }),
  describe: () => '',
};
const silent = { info: () => {}, warn: () => {} };

describe('diagnoseRun', () => {
  it('hands the failures left after the run token budget to the rules engine, and says so', async () => {
    const asked: string[] = [];
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async (i) => {
        asked.push(i.id);
        const draft = {
          issue_id: i.id,
          test: i.test.name,
          report_url: null,
          verdict: 'need_evidence',
          category: 'need_evidence',
          place: { level: 'need_evidence', file: null, function: null, lines: null },
          why: [],
          change: null,
          fix: null,
          verify: [],
          missing_evidence: [],
          alternatives: [],
        } satisfies DiagnosisDraft;
        return { draft, usage: { ...NO_USAGE, input_tokens: 90, output_tokens: 10 }, stopped: 'submitted' };
      },
    };
    const run = await diagnoseRun(
      ctx,
      { runId: 'r', project: 'p', change: 1, patchset: 1, reportUrl: null, pageUrl: null },
      {
        engine,
        checker,
        log: silent,
        triager: { triage: async () => triage },
        concurrency: 1,
        runTokens: 150,
        now: () => new Date(0),
      },
    );
    expect(asked).toEqual(['1', '2']);
    expect(run.failures.map((f) => f.usage?.input_tokens)).toEqual([90, 90, 0]);
    expect(run.engine).toEqual({
      name: 'model',
      model: 'm',
      note: "the run's token budget ran out before 1 of 3 failures: the rules engine diagnosed those",
    });
    expect(run.created_at).toBe('1970-01-01T00:00:00.000Z');
  });
});
