import { describe, expect, it } from 'vitest';
import type { DiagnosisContext } from '../../../src/context/index.ts';
import { diagnoseByRules, rerunCommand } from '../../../src/engines/rules/index.ts';
import type { Issue, Location, Signal, Triage, VerifiedLocation } from '../../../src/schemas/index.ts';
import { targetCite } from '../../../src/signals/index.ts';

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
    // The confirmed line is where it surfaced, not a line to change: the place stays at the function.
    expect(draft.place).toEqual({
      level: 'function',
      file: 'src/price.py',
      function: 'price',
      lines: { start: 3, end: 8 },
    });
    const { draft: bare } = diagnoseByRules(issue([candidate({ function: null })]), env, ctx());
    expect(bare.place).toMatchObject({ level: 'file', file: 'src/price.py', lines: null });
    // Any other verdict keeps the line the locator granted.
    const { draft: caused } = diagnoseByRules(
      issue([candidate({})]),
      { ...env, verdict: 'need_evidence', category: 'need_evidence', signals: [] },
      ctx(),
    );
    expect(caused.place.level).toBe('line');
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

describe('rules engine: signals that point off the stack', () => {
  const testCandidate = candidate({
    role: 'test',
    file: 'tests/test_price.py',
    function: { name: 'test_rounds_half_up', lines: { start: 1, end: 4 } },
    lines: { start: 3, end: 3 },
    reported: {
      role: 'test',
      frame_index: 0,
      file: 'tests/test_price.py',
      line: 3,
      function: 'test_rounds_half_up',
    },
  });
  const target = (
    role: Parameters<typeof targetCite>[0],
    file: string,
    fn: string | null,
    start: number,
    end: number,
  ) => targetCite(role, { file, function: fn, lines: { start, end } });
  const callSignal = (file: string, fn: string, start: number, end: number, changed: number): Signal => ({
    kind: 'diff_impact',
    detail: `the test frame calls ${fn}, which this change modified in ${file}`,
    cites: [
      { kind: 'diff', file, lines: { start: changed, end: changed } },
      { kind: 'code', file: 'tests/test_price.py', lines: { start: 3, end: 3 } },
      target('changed_function', file, fn, start, end),
    ],
  });
  const triage = (over: Partial<Triage>): Triage => ({ ...caused, ...over });

  it('points a code regression at the changed function the path calls first, the others as alternatives', () => {
    const { draft, trace } = diagnoseByRules(
      issue([testCandidate]),
      triage({
        signals: [
          callSignal('src/price.py', 'gross_price', 10, 16, 15),
          callSignal('src/tax.py', 'vat_rate', 3, 5, 4),
        ],
      }),
      ctx(['src/price.py', 'src/tax.py', 'src/catalogue.py']),
    );
    expect(draft.place).toEqual({
      level: 'function',
      file: 'src/price.py',
      function: 'gross_price',
      lines: { start: 10, end: 16 },
    });
    expect(draft.category).toBe('code_regression');
    expect(draft.why.at(-1)).toEqual({
      text: "the earliest deviation found on the failing path: this change modified gross_price (src/price.py line 15, in gross_price's lines 10-16), which the path calls before the failure surfaces",
      cites: [
        { kind: 'diff', file: 'src/price.py', lines: { start: 15, end: 15 } },
        { kind: 'signal', name: 'changed_function', detail: 'src/price.py:10-16 (gross_price)' },
      ],
    });
    expect(draft.change).toMatchObject({ target: 'code', file: 'src/price.py', function: 'gross_price' });
    expect(draft.alternatives.map((a) => a.text)).toEqual([
      'the failing path also reaches vat_rate (src/tax.py lines 3-5); the deviation may start there instead',
      'the change also modified src/catalogue.py; if the failing path reads what it produces, the deviation starts there',
    ]);
    expect(trace.confirm_location.reasons[0]).toContain(
      'a function this change modified, called on the failing path',
    );
  });

  it('keeps a production frame the change modified itself: the stack shows the deviation', () => {
    const touched = candidate({
      role: 'failure',
      diff_impact: { kind: 'in_hunk', changed_lines: [{ start: 5, end: 5 }], related_functions: [] },
    });
    const { draft } = diagnoseByRules(
      issue([testCandidate, touched]),
      triage({ signals: [callSignal('src/tax.py', 'vat_rate', 3, 5, 4)] }),
      ctx(['src/price.py', 'src/tax.py']),
    );
    expect(draft.place).toEqual({
      level: 'line',
      file: 'src/price.py',
      function: 'price',
      lines: { start: 5, end: 5 },
    });
  });

  it('lists the commit message describing the changed function as deliberate as an alternative', () => {
    const { draft } = diagnoseByRules(
      issue([testCandidate]),
      triage({ signals: [callSignal('src/price.py', 'gross_price', 10, 16, 15)] }),
      { ...ctx(['src/price.py']), message: 'Pricing: cents\n\ngross_price() now works in integer cents.\n' },
    );
    expect(draft.category).toBe('code_regression');
    expect(draft.alternatives[0]?.text).toContain(
      'the commit message describes this change to gross_price as deliberate ("gross_price() now works in integer cents.")',
    );
  });

  it('points a stale expectation at the test code still using the dropped name, and fixes the test', () => {
    const intent: Signal = {
      kind: 'diff_impact',
      detail: 'the commit message states a deliberate change naming `username`',
      cites: [
        { kind: 'diff', file: 'src/Login.java', lines: { start: 17, end: 17 } },
        { kind: 'code', file: 'tests/LoginTest.java', lines: { start: 20, end: 20 } },
        target('stale_use', 'tests/LoginTest.java', 'LoginTest.form', 19, 21),
      ],
    };
    const { draft } = diagnoseByRules(
      issue([testCandidate]),
      triage({
        category: 'stale_test_expectation',
        signals: [callSignal('src/Login.java', 'Login.login', 16, 29, 17), intent],
      }),
      ctx(['src/Login.java']),
    );
    expect(draft.place).toEqual({
      level: 'function',
      file: 'tests/LoginTest.java',
      function: 'LoginTest.form',
      lines: { start: 19, end: 21 },
    });
    expect(draft.category).toBe('stale_test_expectation');
    expect(draft.change).toMatchObject({
      target: 'test',
      file: 'tests/LoginTest.java',
      function: 'LoginTest.form',
    });
    expect(draft.alternatives.map((a) => a.text)).toEqual([
      'or the contract change itself is the regression (for clients that still use the old name, as the test does): then the changed production code must accept the old contract again, and the test stays',
    ]);
    expect(draft.missing_evidence.map((m) => m.who)).toEqual(['change_owner']);
    expect(draft.why.at(-1)?.cites.at(-1)).toEqual(
      target('stale_use', 'tests/LoginTest.java', 'LoginTest.form', 19, 21),
    );
  });

  it('points leaked test data at its fixture: test data to change, a clean re-run to confirm', () => {
    const leak: Signal = {
      kind: 'flaky',
      detail: 'a uniqueness error on a path this change does not touch',
      cites: [
        { kind: 'fact', issue_id: '001', index: 1 },
        { kind: 'code', file: 'tests/conftest.py', lines: { start: 10, end: 13 } },
        target('fixture', 'tests/conftest.py', 'store', 10, 13),
      ],
    };
    const { draft } = diagnoseByRules(
      issue(
        [testCandidate],
        [frame({ role: 'test', file: 'tests/test_price.py', function: 'test_rounds_half_up' })],
      ),
      triage({ verdict: 'flaky', category: 'fixture_or_mock', signals: [leak] }),
      ctx(['src/profile.py']),
    );
    expect(draft.place).toEqual({
      level: 'function',
      file: 'tests/conftest.py',
      function: 'store',
      lines: { start: 10, end: 13 },
    });
    expect([draft.verdict, draft.category]).toEqual(['flaky', 'fixture_or_mock']);
    expect(draft.change).toMatchObject({ target: 'test_data', file: 'tests/conftest.py', function: 'store' });
    expect(draft.missing_evidence).toEqual([
      {
        what: 'a re-run of this test on the same revision in a clean workspace (no data left from earlier runs): it should pass',
        who: 'qa',
      },
    ]);
    expect(draft.verify).toEqual([
      'pytest tests/test_price.py::test_rounds_half_up',
      'run `pytest tests/test_price.py::test_rounds_half_up` twice in a row in the same workspace, without cleaning it in between: both runs must pass',
    ]);
  });

  it('points a pre-existing failure at the code under test, proposing no change', () => {
    const callee: Signal = {
      kind: 'no_diff_link',
      detail: 'the failing line calls slugify, which this change did not modify',
      cites: [
        { kind: 'code', file: 'src/text.ts', lines: { start: 2, end: 7 } },
        target('callee', 'src/text.ts', 'slugify', 2, 7),
      ],
    };
    const mainline: Signal = { kind: 'pre_existing', detail: 'fails on main', cites: [] };
    const { draft } = diagnoseByRules(
      issue([testCandidate]),
      triage({ verdict: 'pre_existing', category: 'pre_existing', signals: [mainline, callee] }),
      ctx(['src/text.ts']),
    );
    expect(draft.place).toEqual({
      level: 'function',
      file: 'src/text.ts',
      function: 'slugify',
      lines: { start: 2, end: 7 },
    });
    expect(draft.change).toMatchObject({ target: 'none', file: null });
    expect(draft.alternatives[0]?.text).toBe(
      "or the test's expectation is what is wrong, not slugify: the owner of the test on the target branch decides",
    );
  });

  it('ignores targets whose role does not fit the verdict', () => {
    const leak: Signal = {
      kind: 'flaky',
      detail: 'leak',
      cites: [target('fixture', 'tests/conftest.py', 'store', 10, 13)],
    };
    const { draft } = diagnoseByRules(
      issue([testCandidate]),
      triage({ signals: [leak] }),
      ctx(['src/price.py']),
    );
    expect(draft.place.file).toBe('tests/test_price.py');
  });
});
