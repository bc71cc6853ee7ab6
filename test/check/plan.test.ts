import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDraft } from '../../src/check/index.ts';
import type { ChangeAdvice, Citation, DiagnosisDraft, VerifiedFix } from '../../src/schemas/index.ts';
import { CAUSED, ENVIRONMENT, goodDraft, openWorld, type World } from './world.ts';

let world: World;
beforeAll(async () => {
  world = await openWorld();
});
afterAll(async () => world.close());

function withAdvice(text: string, cites?: Citation[], extra: Partial<ChangeAdvice> = {}): DiagnosisDraft {
  const draft = goodDraft(world);
  const change = draft.change as ChangeAdvice;
  return { ...draft, change: { ...change, advice: { text, cites: cites ?? change.advice.cites }, ...extra } };
}

function withFix(path: string, line: number, width: number, replacement: string): DiagnosisDraft {
  const fix: VerifiedFix = {
    description: 'the edit under test',
    replacements: [
      {
        path,
        range: { start_line: line, start_character: 0, end_line: line, end_character: width },
        replacement,
      },
    ],
    verification: { command: 'pytest tests/test_price.py', outcome: 'passed', evidence: world.ids.fixRun },
  };
  return { ...goodDraft(world), fix };
}

async function codes(draft: DiagnosisDraft, input = world.input) {
  return (await checkDraft(draft, input)).map((f) => [f.code, f.path, f.severity]);
}

describe('the change and the fix', () => {
  it('accepts a verified fix of the cause', async () => {
    const draft = withFix(
      'src/price.py',
      6,
      21,
      '    return total.quantize(Decimal("1"), rounding=ROUND_HALF_UP)',
    );
    expect(await codes(draft)).toEqual([]);
  });

  it('rejects a change in a file or function the revision does not have', async () => {
    expect(await codes(withAdvice('round half up', undefined, { file: 'src/pricing.py' }))).toEqual([
      ['file_not_at_revision', 'change.file', 'error'],
    ]);
    expect(await codes(withAdvice('round half up', undefined, { function: 'round_price' }))).toEqual([
      ['function_not_found', 'change.function', 'error'],
    ]);
  });

  it('rejects fix edits outside the file, in missing files, and a verification run not in the store', async () => {
    expect(await codes(withFix('src/price.py', 30, 0, 'x'))).toEqual([
      ['lines_out_of_range', 'fix.replacements.0', 'error'],
    ]);
    expect(await codes(withFix('src/price.py', 6, 99, 'x'))).toEqual([
      ['lines_out_of_range', 'fix.replacements.0', 'error'],
    ]);
    expect(await codes(withFix('src/rounding.py', 1, 0, 'x'))).toEqual([
      ['file_not_at_revision', 'fix.replacements.0', 'error'],
    ]);
    const draft = withFix('src/price.py', 6, 21, '    return round(total)');
    const unverified = {
      ...draft,
      fix: {
        ...(draft.fix as VerifiedFix),
        verification: {
          command: 'pytest',
          outcome: 'passed' as const,
          evidence: 'ev_111111111111111111111111',
        },
      },
    };
    expect(await codes(unverified)).toEqual([['evidence_not_found', 'fix.verification.evidence', 'error']]);
  });
});

describe('advice that only turns CI green', () => {
  it('rejects "delete the assertion" in the advice, the rationale and the verify steps', async () => {
    expect(
      await codes(withAdvice('Delete the assertion in test_rounds_half_up; the rounding is fine.')),
    ).toEqual([['ci_greening_advice', 'change.advice', 'error']]);
    const draft = goodDraft(world);
    const rationale = {
      text: 'the quickest way is to mark the test as skipped',
      cites: draft.why[1]?.cites ?? [],
    };
    expect(await codes({ ...draft, change: { ...(draft.change as ChangeAdvice), rationale } })).toEqual([
      ['ci_greening_advice', 'change.rationale', 'error'],
    ]);
    expect(await codes({ ...draft, verify: ['pytest tests/ --reruns 3'] })).toEqual([
      ['ci_greening_advice', 'verify.0', 'error'],
    ]);
  });

  it('accepts fixing the expected value to the new contract for a stale test expectation', async () => {
    const draft = withAdvice(
      "Fix the assertion's expected value to the new contract: unit_price truncates by design now.",
      undefined,
      {
        target: 'test',
        file: 'tests/test_price.py',
        function: 'test_rounds_half_up',
      },
    );
    expect(await codes({ ...draft, category: 'stale_test_expectation' })).toEqual([]);
    expect(await codes(withFix('tests/test_price.py', 5, 34, '    assert unit_price(250, 1) == 2'))).toEqual(
      [],
    );
  });

  it('rejects a fix that removes the assertion, or adds a skip marker', async () => {
    expect(await codes(withFix('tests/test_price.py', 5, 34, '    unit_price(250, 1)'))).toEqual([
      ['ci_greening_advice', 'fix.replacements.0', 'error'],
    ]);
    const skip = withFix(
      'tests/test_price.py',
      4,
      26,
      '@pytest.mark.skip(reason="pricing")\ndef test_rounds_half_up():',
    );
    expect(await codes(skip)).toEqual([['ci_greening_advice', 'fix.replacements.0', 'error']]);
  });

  it('rejects raising a timeout without a cause', async () => {
    const finding = (await checkDraft(withAdvice('Raise the import timeout to 60 s.'), world.input))[0];
    expect(finding).toMatchObject({ code: 'ci_greening_advice', path: 'change.advice' });
    expect(finding?.message).toContain('without a cause');
  });

  it('rejects a timeout raise resting only on the limit that was hit', async () => {
    const limit: Citation = {
      kind: 'evidence',
      id: world.ids.timing,
      lines: { start: 3, end: 3 },
      quote: '(limit 30 s)',
    };
    expect(await codes(withAdvice('Raise the import timeout to 60 s.', [limit]))).toEqual([
      ['ci_greening_advice', 'change.advice', 'error'],
    ]);
  });

  it('accepts a timeout raise with a cited measured duration, a duration fact, or a timeout signal', async () => {
    const measured: Citation = {
      kind: 'evidence',
      id: world.ids.timing,
      lines: { start: 3, end: 3 },
      quote: 'import_orders took 42.5 s',
    };
    expect(await codes(withAdvice('Raise the import timeout to 60 s.', [measured]))).toEqual([]);
    expect(
      await codes(
        withAdvice('Raise the import timeout to 60 s.', [{ kind: 'fact', issue_id: '001', index: 2 }]),
      ),
    ).toEqual([]);
    const slowDb = {
      ...CAUSED,
      signals: [
        ...CAUSED.signals,
        { kind: 'environment' as const, detail: 'connect to db:5432 timed out', cites: [] },
      ],
    };
    expect(await codes(withAdvice('Raise the import timeout to 60 s.'), world.withTriage(slowDb))).toEqual(
      [],
    );
  });
});

describe('code fixes for environment failures', () => {
  const environmentDraft = (): DiagnosisDraft => ({
    ...goodDraft(world),
    verdict: 'environment',
    category: 'environment',
  });

  it('rejects a code change and a fix of production code for an environment verdict', async () => {
    const env = world.withTriage(ENVIRONMENT);
    expect(await codes(environmentDraft(), env)).toEqual([['code_fix_for_environment', 'change', 'error']]);
    const fixed = {
      ...withFix('src/price.py', 6, 21, '    return round(total)'),
      verdict: 'environment' as const,
      category: 'environment' as const,
      change: null,
    };
    expect(await codes(fixed, env)).toEqual([['code_fix_for_environment', 'fix.replacements.0', 'error']]);
    const disguised = {
      ...environmentDraft(),
      change: { ...(goodDraft(world).change as ChangeAdvice), target: 'test' as const },
    };
    expect(await codes(disguised, env)).toEqual([['code_fix_for_environment', 'change.file', 'error']]);
  });

  it('rejects a code change when the triage says environment and the draft only abstains', async () => {
    const draft = {
      ...goodDraft(world),
      verdict: 'need_evidence' as const,
      category: 'need_evidence' as const,
    };
    expect(await codes(draft, world.withTriage(ENVIRONMENT))).toEqual([
      ['code_fix_for_environment', 'change', 'error'],
      ['verdict_overturned', 'verdict', 'warning'],
    ]);
  });

  it('accepts environment advice aimed at the runner setup', async () => {
    const draft: DiagnosisDraft = {
      ...environmentDraft(),
      change: {
        target: 'environment',
        file: 'docker-compose.yml',
        function: null,
        advice: {
          text: 'start the database service before the tests',
          cites: [{ kind: 'signal', name: 'environment', detail: 'connection refused' }],
        },
        rationale: null,
        impact: [],
      },
    };
    expect(await codes(draft, world.withTriage(ENVIRONMENT))).toEqual([]);
  });

  it('accepts a code change when the draft overturns the environment triage on evidence', async () => {
    expect(await codes(goodDraft(world), world.withTriage(ENVIRONMENT))).toEqual([]);
  });
});
