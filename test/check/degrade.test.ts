import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckInput, checkDraft, degradeDraft } from '../../src/check/index.ts';
import type { ChangeAdvice, DiagnosisDraft, DiagnosisPlace } from '../../src/schemas/index.ts';
import { DIFF_SIGNAL, ENVIRONMENT, goodDraft, openWorld, UNDECIDED, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await openWorld();
});
afterAll(async () => world.close());

/** Checks, degrades, and asserts what the degrade promises: its result passes the checker without errors. */
async function degraded(draft: DiagnosisDraft, input: CheckInput = world.input): Promise<DiagnosisDraft> {
  const findings = await checkDraft(draft, input);
  expect(findings.some((f) => f.severity === 'error')).toBe(true);
  const result = await degradeDraft(draft, findings, input);
  expect(result.degraded).toBe(true);
  expect((await checkDraft(result.draft, input)).filter((f) => f.severity === 'error')).toEqual([]);
  return result.draft;
}

const INVENTED = { kind: 'evidence' as const, id: 'ev_000000000000000000000000', quote: 'made up' };

describe('degrading a draft', () => {
  it('leaves a draft without errors as it is', async () => {
    const draft = goodDraft(world);
    expect(await degradeDraft(draft, await checkDraft(draft, world.input), world.input)).toEqual({
      draft,
      degraded: false,
    });
  });

  it('drops the citations that failed and the claims left without any', async () => {
    const draft = goodDraft(world);
    const first = draft.why[0] as DiagnosisDraft['why'][number];
    const out = await degraded({
      ...draft,
      why: [
        { ...first, cites: [...first.cites, INVENTED] },
        ...draft.why.slice(1),
        { text: 'invented', cites: [INVENTED] },
      ],
      alternatives: [{ text: 'uncited', cites: [] }],
    });
    expect(out.why).toEqual(draft.why);
    expect(out.alternatives).toEqual([]);
  });

  it('lowers a line that was not granted to the function the draft named', async () => {
    const place: DiagnosisPlace = {
      level: 'line',
      file: 'src/price.py',
      function: 'describe',
      lines: { start: 10, end: 10 },
    };
    const out = await degraded({ ...goodDraft(world), place });
    expect(out.place).toEqual({
      level: 'function',
      file: 'src/price.py',
      function: 'describe',
      lines: { start: 9, end: 10 },
    });
  });

  it('lowers to the function the locator confirmed when the draft named none', async () => {
    const place: DiagnosisPlace = {
      level: 'line',
      file: 'src/cart.ts',
      function: null,
      lines: { start: 9, end: 9 },
    };
    const out = await degraded({ ...goodDraft(world), place });
    expect(out.place).toMatchObject({ level: 'function', file: 'src/cart.ts', function: 'Cart.total' });
  });

  it('lowers to the file when no function holds, and to need_evidence when the file does not exist', async () => {
    const wrongFunction: DiagnosisPlace = {
      level: 'function',
      file: 'src/price.py',
      function: 'round_price',
      lines: null,
    };
    expect((await degraded({ ...goodDraft(world), place: wrongFunction })).place).toEqual({
      level: 'file',
      file: 'src/price.py',
      function: null,
      lines: null,
    });
    const missing: DiagnosisPlace = {
      level: 'line',
      file: 'src/pricing.py',
      function: null,
      lines: { start: 6, end: 6 },
    };
    expect((await degraded({ ...goodDraft(world), place: missing })).place).toEqual({
      level: 'need_evidence',
      file: null,
      function: null,
      lines: null,
    });
  });

  it('removes greening advice and says who must decide', async () => {
    const draft = goodDraft(world);
    const change = {
      ...(draft.change as ChangeAdvice),
      advice: { text: 'Delete the assertion.', cites: draft.why[1]?.cites ?? [] },
    };
    const out = await degraded({ ...draft, change });
    expect(out.change).toBeNull();
    expect(out.fix).toBeNull();
    expect(out.missing_evidence).toEqual([expect.objectContaining({ who: 'change_owner' })]);
    expect(out.missing_evidence[0]?.what).toContain('deletes an assertion');
    expect(out.verdict).toBe('caused_by_change');
  });

  it('drops a greening verify step and keeps the rest', async () => {
    const out = await degraded({
      ...goodDraft(world),
      verify: ['pytest --reruns 5', 'pytest tests/test_price.py'],
    });
    expect(out.verify).toEqual(['pytest tests/test_price.py']);
    expect(out.change).not.toBeNull();
  });

  it('removes a code fix for an environment failure and hands the decision to infra', async () => {
    const draft = { ...goodDraft(world), verdict: 'environment' as const, category: 'environment' as const };
    const out = await degraded(draft, world.withTriage(ENVIRONMENT));
    expect(out.change).toBeNull();
    expect(out.missing_evidence).toEqual([expect.objectContaining({ who: 'infra' })]);
  });

  it('reverts a verdict overturned without evidence, and states the signals it rests on', async () => {
    const draft: DiagnosisDraft = {
      ...goodDraft(world),
      verdict: 'pre_existing',
      category: 'pre_existing',
      why: [{ text: 'this fails on master too', cites: [{ kind: 'fact', issue_id: '001', index: 0 }] }],
    };
    const out = await degraded(draft);
    expect(out.verdict).toBe('caused_by_change');
    expect(out.category).toBe('code_regression');
    expect(out.why[0]).toEqual({
      text: DIFF_SIGNAL.detail,
      cites: [{ kind: 'signal', name: 'diff_impact', detail: DIFF_SIGNAL.detail }, ...DIFF_SIGNAL.cites],
    });
  });

  it('reverts a category that does not fit the verdict', async () => {
    expect((await degraded({ ...goodDraft(world), category: 'flaky' })).category).toBe('code_regression');
  });

  it("with no why-claim left, keeps the triage's verdict stated by its signals", async () => {
    const out = await degraded({ ...goodDraft(world), why: [{ text: 'invented', cites: [INVENTED] }] });
    expect(out.verdict).toBe('caused_by_change');
    expect(out.why.map((c) => c.cites[0])).toEqual([
      { kind: 'signal', name: 'diff_impact', detail: DIFF_SIGNAL.detail },
    ]);
  });

  it('with no why-claim left and an undecided triage, needs evidence and says what would decide it', async () => {
    const out = await degraded(
      { ...goodDraft(world), why: [{ text: 'invented', cites: [INVENTED] }] },
      world.withTriage(UNDECIDED),
    );
    expect(out).toMatchObject({
      verdict: 'need_evidence',
      category: 'need_evidence',
      why: [],
      change: null,
      fix: null,
    });
    expect(out.missing_evidence.map((m) => m.who)).toEqual(['qa', 'change_owner']);
    expect(out.missing_evidence[0]?.what).toContain('test_rounds_half_up');
  });

  it('drops a change naming a missing file, and a function the parser does not find', async () => {
    const draft = goodDraft(world);
    const missingFile = await degraded({
      ...draft,
      change: { ...(draft.change as ChangeAdvice), file: 'src/pricing.py' },
    });
    expect(missingFile.change).toBeNull();
    expect(missingFile.missing_evidence[0]?.what).toContain('src/pricing.py');
    const wrongFunction = await degraded({
      ...draft,
      change: { ...(draft.change as ChangeAdvice), function: 'round_price' },
    });
    expect(wrongFunction.change).toMatchObject({ file: 'src/price.py', function: null });
  });

  it('repairs a draft wrong in every way at once into one that passes', async () => {
    const draft: DiagnosisDraft = {
      ...goodDraft(world),
      verdict: 'flaky',
      category: 'code_regression',
      place: { level: 'line', file: 'src/nowhere.py', function: 'ghost', lines: { start: 1, end: 900 } },
      why: [
        { text: 'uncited', cites: [] },
        {
          text: 'invented',
          cites: [INVENTED, { kind: 'code', file: 'src/price.py', lines: { start: 50, end: 60 } }],
        },
      ],
      change: {
        target: 'code',
        file: 'src/ghost.py',
        function: 'ghost',
        advice: { text: 'wrap it in try/except and ignore the error', cites: [] },
        rationale: null,
        impact: [],
      },
      fix: {
        description: 'skip it',
        replacements: [
          {
            path: 'tests/test_price.py',
            range: { start_line: 5, start_character: 0, end_line: 5, end_character: 34 },
            replacement: '    pass',
          },
        ],
        verification: { command: 'pytest', outcome: 'passed', evidence: world.ids.fixRun },
      },
      verify: ['pytest -k "not test_rounds_half_up"'],
      alternatives: [{ text: 'signal', cites: [{ kind: 'signal', name: 'flaky', detail: 'x' }] }],
    };
    const out = await degraded(draft);
    expect(out).toMatchObject({
      verdict: 'caused_by_change',
      category: 'code_regression',
      change: null,
      fix: null,
      verify: [],
      alternatives: [],
    });
    expect(out.place.level).toBe('need_evidence');
  });
});
