import { describe, expect, it } from 'vitest';
import type { DiagnosisContext } from '../../../src/context/index.ts';
import { diagnoseByRules, rerunCommand } from '../../../src/engines/rules/index.ts';
import type { Issue, Location, Triage, VerifiedLocation } from '../../../src/schemas/index.ts';

function frame(overrides: Partial<Location>): Location {
  return {
    role: 'frame',
    file: 'src/a.py',
    line: 1,
    function: null,
    snippet: null,
    language: 'python',
    library: false,
    frame_index: 0,
    ...overrides,
  };
}

function candidate(
  overrides: Partial<VerifiedLocation> & { role?: 'failure' | 'test' | 'frame'; index?: number },
): VerifiedLocation {
  const { role = 'failure', index = 0, ...rest } = overrides;
  return {
    level: 'line',
    file: 'src/price.py',
    function: { name: 'price', lines: { start: 3, end: 8 } },
    lines: { start: 5, end: 5 },
    reasons: [],
    diff_impact: { kind: 'untouched', changed_lines: [], related_functions: [] },
    candidate: null,
    alternatives: [],
    reported: { role, frame_index: index, file: 'src/price.py', line: 5, function: 'price' },
    ...rest,
  };
}

function issue(candidates: VerifiedLocation[], locations: Location[] = []): Issue {
  return {
    id: '001',
    category: 'test_assertion',
    status: 'failed',
    summary: 'assert 267 == 268',
    test: { name: 'test_rounds_half_up', full_name: 'tests/test_price.py::test_rounds_half_up', key: 'k' },
    url: 'http://ci/report/#1',
    reached_by: [],
    facts: [
      { type: 'status', value: 'failed' },
      { type: 'error', value: 'AssertionError: assert 267 == 268\nmore' },
      { type: 'expected', value: '268' },
      { type: 'actual', value: '267' },
    ],
    locations,
    warnings: [],
    candidates,
  };
}

const ctx = (changed: string[] = []): DiagnosisContext =>
  ({
    facts: { schema_version: 1, run: {} as never, issues: [] },
    revision: 'r'.repeat(40),
    message: 'Change prices',
    base: 'b'.repeat(40),
    baseCode: null,
    code: { revision: 'r', read: async () => null, list: async () => [], functions: async () => [] },
    diff: changed.map((path) => ({
      oldPath: path,
      newPath: path,
      status: 'modified',
      hunks: [{ oldStart: 2, oldLines: 1, newStart: 2, newLines: 2 }],
    })),
    evidence: {
      get: () => {
        throw new Error('none');
      },
      readFragment: async () => {
        throw new Error('none');
      },
      readAll: async () => '',
    },
  }) as DiagnosisContext;

const caused: Triage = {
  verdict: 'caused_by_change',
  category: 'code_regression',
  channel: 'test',
  signals: [
    {
      kind: 'diff_impact',
      detail: 'the change modified price()',
      cites: [{ kind: 'diff', file: 'src/price.py' }],
    },
  ],
  signature: 'sig',
};

describe('rules engine', () => {
  it('points at the candidate the change touched, cites facts, code and diff, and plans a re-run', () => {
    const untouchedFailure = candidate({
      file: 'src/util.py',
      function: { name: 'helper', lines: { start: 1, end: 9 } },
    });
    const touched = candidate({
      role: 'frame',
      index: 1,
      diff_impact: { kind: 'in_hunk', changed_lines: [{ start: 5, end: 5 }], related_functions: [] },
    });
    const test = candidate({
      role: 'test',
      index: 1,
      file: 'tests/test_price.py',
      function: { name: 'test_rounds_half_up', lines: { start: 1, end: 4 } },
      lines: { start: 3, end: 3 },
    });
    const { draft, trace } = diagnoseByRules(
      issue(
        [test, untouchedFailure, touched],
        [frame({ role: 'test', file: 'tests/test_price.py', function: 'test_rounds_half_up' })],
      ),
      caused,
      ctx(['src/price.py', 'src/other.py', 'tests/test_price.py']),
    );
    expect(draft.place).toEqual({
      level: 'line',
      file: 'src/price.py',
      function: 'price',
      lines: { start: 5, end: 5 },
    });
    expect(draft.verdict).toBe('caused_by_change');
    expect(draft.category).toBe('code_regression');
    expect(draft.why.map((c) => c.cites[0]?.kind)).toEqual(['fact', 'fact', 'code', 'diff']);
    expect(draft.why[0]?.text).toBe('error: AssertionError: assert 267 == 268');
    expect(draft.change).toMatchObject({ target: 'code', file: 'src/price.py', function: 'price' });
    expect(draft.verify).toEqual(['pytest tests/test_price.py::test_rounds_half_up']);
    expect(draft.alternatives.map((a) => a.cites[0])).toEqual([
      { kind: 'diff', file: 'src/other.py', lines: { start: 2, end: 3 } },
    ]);
    expect(trace.read.unknowns).toContain('the report has no log of the run for this test');
  });

  it('says need_evidence when no frame was located, and who must provide what', () => {
    const lost = candidate({ level: 'need_evidence', file: null, function: null, lines: null });
    const { draft } = diagnoseByRules(
      issue([lost]),
      { ...caused, verdict: 'need_evidence', category: 'need_evidence', signals: [] },
      ctx(),
    );
    expect(draft.place.level).toBe('need_evidence');
    expect(draft.category).toBe('need_evidence');
    expect(draft.missing_evidence).toEqual([
      {
        what: 'the source of the failing frame at this revision (the reported path was not found)',
        who: 'change_owner',
      },
    ]);
  });

  it('gives an environment failure no code change, citing the signal', () => {
    const env: Triage = {
      verdict: 'environment',
      category: 'environment',
      channel: 'test',
      signals: [
        {
          kind: 'environment',
          detail: 'connection refused to localhost:5432',
          cites: [{ kind: 'fact', issue_id: '001', index: 1 }],
        },
      ],
      signature: 's',
    };
    const { draft } = diagnoseByRules(issue([candidate({})]), env, ctx());
    expect(draft.change).toMatchObject({ target: 'environment', file: null, function: null });
    expect(draft.why.at(-1)?.cites[0]).toEqual({
      kind: 'signal',
      name: 'environment',
      detail: 'connection refused to localhost:5432',
    });
    expect(draft.missing_evidence[0]?.who).toBe('infra');
  });
});

describe('rerunCommand', () => {
  const of = (loc: Partial<Location>, name = 'adds items') =>
    rerunCommand({
      ...issue([]),
      test: { name, full_name: null, key: 'k' },
      locations: [frame({ role: 'test', ...loc })],
    });

  it('builds the command of each runner from the test frame', () => {
    expect(of({ language: 'python', file: 'tests/test_a.py', function: 'TestA.test_b' })).toBe(
      'pytest tests/test_a.py::test_b',
    );
    expect(of({ language: 'javascript', file: 'test/cart.test.ts', function: null })).toBe(
      "npx vitest run test/cart.test.ts -t 'adds items'",
    );
    expect(
      of({
        language: 'java',
        file: 'src/test/java/a/LoginTest.java',
        function: 'a.LoginTest.rejectsOldParams',
      }),
    ).toBe('mvn -q test -Dtest=LoginTest#rejectsOldParams');
    expect(of({ language: 'go', file: 'ledger/ledger_test.go', function: 'ledger.TestPost' })).toBe(
      "go test ./ledger -run '^TestPost$'",
    );
    expect(of({ language: 'unknown' })).toBeNull();
  });
});
