import { beforeAll, describe, expect, it } from 'vitest';
import { scanText } from '../../src/check/index.ts';
import type { Claim, DiagnosisRun, FailureDiagnosis } from '../../src/schemas/index.ts';
import { runCase } from './run-case.ts';

/**
 * The six acceptance scenarios of issue 5 (test/corpus/README.md), diagnosed by the built-in
 * rules engine exactly as production would (report, repository, revision, history) and scored
 * against each case's truth, which the pipeline never sees.
 */
const CASES = [
  'price-rounding',
  'order-assembler',
  'login-params',
  'dirty-fixture',
  'db-refused',
  'pre-existing',
];

type Outcome = Awaited<ReturnType<typeof runCase>>;

function claimsOf(f: FailureDiagnosis): Array<{ path: string; claim: Claim }> {
  return [
    ...f.why.map((claim, i) => ({ path: `why.${i}`, claim })),
    ...f.alternatives.map((claim, i) => ({ path: `alternatives.${i}`, claim })),
    ...(f.change === null ? [] : [{ path: 'change.advice', claim: f.change.advice }]),
    ...(f.change?.rationale == null ? [] : [{ path: 'change.rationale', claim: f.change.rationale }]),
  ];
}

const overlaps = (a: { start: number; end: number }, [start, end]: [number, number]) =>
  a.start <= end && start <= a.end;

describe.each(CASES)('%s with the rules engine', (id) => {
  let outcome: Outcome;
  let run: DiagnosisRun;
  beforeAll(async () => {
    outcome = await runCase(id);
    run = outcome.run;
  });

  it('diagnoses every failing test of the report, with the rules engine', () => {
    expect(run.engine.name).toBe('rules');
    expect(run.failures).toHaveLength(outcome.truth.failures);
  });

  it("gives every failure the truth's verdict and category", () => {
    for (const f of run.failures) {
      expect([f.test, f.verdict, f.category]).toEqual([
        f.test,
        outcome.truth.verdict,
        outcome.truth.category,
      ]);
    }
  });

  it('places every failure in a file the truth names, claiming lines only inside the truth lines', () => {
    const truth = outcome.truth.locations;
    for (const f of run.failures) {
      if (truth.length === 0) continue;
      const inFile = truth.filter((t) => t.file === f.place.file);
      expect(
        inFile.map((t) => t.file),
        `${f.test}: ${JSON.stringify(f.place)}`,
      ).not.toEqual([]);
      expect(f.place.level).not.toBe('need_evidence');
      if (f.place.level === 'line') {
        const lines = f.place.lines as { start: number; end: number };
        expect(
          inFile.some((t) => overlaps(lines, t.lines)),
          `${f.test}: line claim ${JSON.stringify(lines)}`,
        ).toBe(true);
      }
      if (f.place.level === 'function') {
        const named = inFile.filter((t) => t.function !== null);
        if (named.length > 0)
          expect(named.some((t) => (f.place.function ?? '').split('.').at(-1) === t.function)).toBe(true);
      }
    }
  });

  it('passes the evidence checker as drafted: no errors, nothing degraded, every claim cited', () => {
    for (const f of run.failures) {
      const errors = (f.check?.findings ?? []).filter((x) => x.severity === 'error');
      expect(errors, f.test).toEqual([]);
      expect(f.check?.degraded, f.test).toBe(false);
      for (const { path, claim } of claimsOf(f))
        expect(claim.cites.length, `${f.test} ${path}`).toBeGreaterThan(0);
      expect(f.why.length, f.test).toBeGreaterThan(0);
    }
  });

  it('advises nothing that only turns CI green', () => {
    for (const f of run.failures) {
      const advice = [f.change?.advice.text, f.change?.rationale?.text].filter((t) => t !== undefined);
      expect(
        advice.flatMap((t) => scanText(t, 'advice')).map((h) => h.match),
        f.test,
      ).toEqual([]);
      expect(
        f.verify.flatMap((t) => scanText(t, 'verify')).map((h) => h.match),
        f.test,
      ).toEqual([]);
      expect(f.fix, f.test).toBeNull();
    }
  });

  it('proposes no code change for the environment, and a change where the truth has one', () => {
    for (const f of run.failures) {
      if (f.verdict === 'environment') {
        expect(f.change?.target ?? 'none', f.test).not.toBe('code');
        expect(f.change?.file ?? null, f.test).toBeNull();
        continue;
      }
      if (outcome.truth.locations.length === 0 || f.verdict === 'pre_existing') continue;
      expect(f.change?.file, f.test).toBe(f.place.file);
    }
  });
});

describe('what each scenario asks for in particular', () => {
  const runs = new Map<string, Outcome>();
  const get = async (id: string) => {
    const known = runs.get(id);
    if (known !== undefined) return known;
    const fresh = await runCase(id);
    runs.set(id, fresh);
    return fresh;
  };

  it('price-rounding: the assertion calls gross_price, which the change modified — code at gross_price', async () => {
    const { run } = await get('price-rounding');
    for (const f of run.failures) {
      expect(f.place).toMatchObject({ level: 'function', file: 'pricing/price.py', function: 'gross_price' });
      expect(f.change).toMatchObject({ target: 'code', file: 'pricing/price.py', function: 'gross_price' });
      expect(f.why.at(-1)?.cites.some((c) => c.kind === 'diff' && c.file === 'pricing/price.py')).toBe(true);
      // The message calls the change deliberate: said, as an alternative, not decided.
      expect(f.alternatives.some((a) => a.text.includes('deliberate'))).toBe(true);
    }
  });

  it('order-assembler: the earliest deviation is the assembler, off the stack, not the validation line', async () => {
    const { run } = await get('order-assembler');
    for (const f of run.failures) {
      expect(f.place).toMatchObject({
        file: 'api/assembler/order_assembler.py',
        function: 'to_create_order_command',
      });
      expect(f.why.some((c) => c.cites.some((x) => x.kind === 'code' && x.file === 'api/handlers.py'))).toBe(
        true,
      );
    }
  });

  it('login-params: the test helper still sends the old parameter — fix the test, ask the owner', async () => {
    const { run } = await get('login-params');
    for (const f of run.failures) {
      expect(f.change).toMatchObject({ target: 'test', function: 'LoginControllerTest.form' });
      expect(f.why.some((c) => c.text.includes('commit message'))).toBe(true);
      expect(f.alternatives.some((a) => a.text.includes('regression'))).toBe(true);
      expect(f.missing_evidence.map((m) => m.who)).toContain('change_owner');
    }
  });

  it('dirty-fixture: the fixture, test data to change, a clean re-run to confirm', async () => {
    const { run } = await get('dirty-fixture');
    for (const f of run.failures) {
      expect(f.change).toMatchObject({ target: 'test_data', file: 'tests/conftest.py', function: 'store' });
      expect(f.missing_evidence.some((m) => m.who === 'qa' && m.what.includes('clean workspace'))).toBe(true);
    }
  });

  it('pre-existing: nothing to change in this change; the code under test named', async () => {
    const { run } = await get('pre-existing');
    for (const f of run.failures) {
      expect(f.change).toMatchObject({ target: 'none', file: null });
      expect(f.place).toMatchObject({ file: 'src/text.ts', function: 'slugify' });
    }
  });
});
