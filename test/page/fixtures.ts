import {
  type Citation,
  DiagnosisRun,
  FactsDocument,
  type FailureDiagnosis,
  type Issue,
} from '../../src/schemas/index.ts';

/** A small valid run of one failure, for tests that shape the content themselves. */
export function oneFailureRun(
  failure: Partial<FailureDiagnosis> = {},
  run: Partial<DiagnosisRun> = {},
): DiagnosisRun {
  const cites: Citation[] = [{ kind: 'code', file: 'src/app.py', lines: { start: 3, end: 3 } }];
  return DiagnosisRun.parse({
    schema_version: 1,
    run_id: 'run-1',
    change: { project: 'shop', number: 7, patchset: 2, revision: 'a'.repeat(40) },
    report_url: 'http://ci.example.com/report/',
    page_url: null,
    engine: { name: 'model', model: 'claude-test', note: null },
    created_at: '2026-09-17T10:00:00.000Z',
    failures: [
      {
        issue_id: '001',
        test: 'tests.test_app#test_total',
        report_url: 'http://ci.example.com/report/#001',
        verdict: 'caused_by_change',
        category: 'code_regression',
        place: { level: 'line', file: 'src/app.py', function: 'total', lines: { start: 3, end: 3 } },
        why: [{ text: 'total() drops the last item', cites }],
        change: {
          target: 'code',
          file: 'src/app.py',
          function: 'total',
          advice: { text: 'sum all items', cites },
          rationale: null,
          impact: [],
        },
        fix: null,
        verify: ['pytest tests/test_app.py'],
        missing_evidence: [],
        alternatives: [],
        usage: {
          input_tokens: 1200,
          output_tokens: 300,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          tool_calls: 4,
          latency_ms: 2300,
        },
        check: { findings: [], repair_rounds: 0, degraded: false },
        ...failure,
      },
    ],
    ...run,
  });
}

export function factsFor(issue: Partial<Issue> = {}): FactsDocument {
  return FactsDocument.parse({
    schema_version: 1,
    run: {
      repository: 'shop',
      change_id: null,
      patchset: 2,
      revision_sha: 'a'.repeat(40),
      report_url: 'http://ci.example.com/report/',
      platform: 'allure2',
      mode: 'data',
      scraped_at: '2026-09-17T09:59:00.000Z',
      environment: [],
      warnings: [],
    },
    issues: [
      {
        id: '001',
        category: 'test_assertion',
        status: 'failed',
        summary: 'test_total: AssertionError',
        test: {
          name: 'test_total',
          full_name: 'tests.test_app#test_total',
          key: 'tests.test_app#test_total',
        },
        url: 'http://ci.example.com/report/#001',
        reached_by: [],
        facts: [{ type: 'error', value: 'AssertionError: assert 2 == 3' }],
        locations: [],
        warnings: [],
        candidates: [
          {
            level: 'line',
            file: 'src/app.py',
            function: { name: 'total', lines: { start: 1, end: 3 } },
            lines: { start: 3, end: 3 },
            reasons: ['function and snippet agree on line 3'],
            diff_impact: { kind: 'in_hunk', changed_lines: [{ start: 3, end: 3 }], related_functions: [] },
            candidate: {
              file: 'src/app.py',
              lines: { start: 1, end: 3 },
              text: 'def total(items):\n    # sum them\n    return sum(items[:-1])',
              truncated: false,
            },
            alternatives: [],
            reported: { role: 'failure', frame_index: 0, file: 'src/app.py', line: 3, function: 'total' },
          },
        ],
        ...issue,
      },
    ],
  });
}
