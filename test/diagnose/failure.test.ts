import { describe, expect, it } from 'vitest';
import type { DiagnosisContext } from '../../src/context/index.ts';
import { type Checker, diagnoseFailure, type Engine, NO_USAGE } from '../../src/diagnose/index.ts';
import { DiagnosisError } from '../../src/errors/index.ts';
import type { CheckFinding, DiagnosisDraft, Issue, Triage } from '../../src/schemas/index.ts';
import { moduleMap } from '../../src/skill/index.ts';

const issue: Issue = {
  id: '001',
  category: 'test_assertion',
  status: 'failed',
  summary: 's',
  test: { name: 't', full_name: null, key: 'k' },
  url: 'http://ci/1',
  reached_by: [],
  facts: [{ type: 'error', value: 'AssertionError: boom' }],
  locations: [],
  warnings: [],
  candidates: [],
};
const triage: Triage = {
  verdict: 'caused_by_change',
  category: 'code_regression',
  channel: 'test',
  signals: [],
  signature: 's',
};
const ctx = { facts: { issues: [issue] }, diff: [], revision: 'r' } as unknown as DiagnosisContext;
const silent = { info: () => {}, warn: () => {} };

const draft = (text: string): DiagnosisDraft => ({
  issue_id: '001',
  test: 't',
  report_url: null,
  verdict: 'caused_by_change',
  category: 'code_regression',
  place: { level: 'need_evidence', file: null, function: null, lines: null },
  why: [{ text, cites: [] }],
  change: null,
  fix: null,
  verify: [],
  missing_evidence: [],
  alternatives: [],
});

/** A checker that rejects uncited claims and degrades by dropping them: enough to drive the loop. */
const checker: Checker = {
  check: async (d) =>
    d.why.flatMap((c, i): CheckFinding[] =>
      c.cites.length === 0
        ? [{ code: 'uncited_claim', severity: 'error', path: `why.${i}`, message: 'no citation' }]
        : [],
    ),
  degrade: async (d) => ({ draft: { ...d, why: d.why.filter((c) => c.cites.length > 0) }, degraded: true }),
  describe: (findings) => findings.map((f) => `${f.path}: ${f.code}`).join('\n'),
};

const usage = (tokens: number) => ({ ...NO_USAGE, input_tokens: tokens, tool_calls: 1 });
const cited = { text: 'cited', cites: [{ kind: 'fact' as const, issue_id: '001', index: 0 }] };

describe('diagnoseFailure', () => {
  it('repairs once against the findings, then keeps the repaired draft', async () => {
    const seen: string[] = [];
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async () => ({ draft: draft('uncited'), usage: usage(10), stopped: 'submitted' }),
      repair: async (_i, _d, findings) => {
        seen.push(findings);
        return { draft: { ...draft('x'), why: [cited] }, usage: usage(5), stopped: 'submitted' };
      },
    };
    const { diagnosis, fellBack } = await diagnoseFailure(issue, triage, ctx, {
      engine,
      checker,
      log: silent,
    });
    expect(seen).toEqual(['why.0: uncited_claim']);
    expect(diagnosis.why).toEqual([cited]);
    expect(diagnosis.check).toEqual({ findings: [], repair_rounds: 1, degraded: false });
    expect(diagnosis.usage).toMatchObject({ input_tokens: 15, tool_calls: 2 });
    expect(diagnosis.triage).toBe(triage);
    expect(fellBack).toBeNull();
  });

  it('degrades what the repair round did not fix, and keeps the findings', async () => {
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async () => ({ draft: draft('uncited'), usage: usage(1), stopped: 'submitted' }),
      repair: async () => ({
        draft: { ...draft('still uncited'), why: [cited, { text: 'no', cites: [] }] },
        usage: usage(1),
        stopped: 'submitted',
      }),
    };
    const { diagnosis } = await diagnoseFailure(issue, triage, ctx, { engine, checker, log: silent });
    expect(diagnosis.why).toEqual([cited]);
    expect(diagnosis.check?.degraded).toBe(true);
    expect(diagnosis.check?.findings.map((f) => f.path)).toEqual(['why.1']);
  });

  it('falls back to the rules engine when the model fails, and says so', async () => {
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async () => {
        throw new DiagnosisError('MODEL_ERROR', 'overloaded after 3 retries');
      },
    };
    const { diagnosis, fellBack } = await diagnoseFailure(issue, triage, ctx, {
      engine,
      checker,
      log: silent,
    });
    expect(fellBack).toBe('MODEL_ERROR: overloaded after 3 retries');
    expect(diagnosis.why[0]?.text).toBe('error: AssertionError: boom');
    expect(diagnosis.check?.repair_rounds).toBe(0);
  });

  it('ends a failure whose budget ran out as need_evidence with what the rules learned', async () => {
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async () => ({ draft: null, usage: usage(99), stopped: 'budget' }),
    };
    const { diagnosis } = await diagnoseFailure(issue, triage, ctx, { engine, checker, log: silent });
    expect(diagnosis.verdict).toBe('need_evidence');
    expect(diagnosis.check?.findings[0]?.code).toBe('budget_exhausted');
    expect(diagnosis.missing_evidence.at(-1)?.what).toMatch(/within its budget \(1 tool calls\)/);
  });

  it('does not hide errors that are not the model failing', async () => {
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async () => {
        throw new DiagnosisError('GIT_ERROR', 'object missing');
      },
    };
    await expect(diagnoseFailure(issue, triage, ctx, { engine, checker, log: silent })).rejects.toMatchObject(
      { code: 'GIT_ERROR' },
    );
  });

  it('delegates per module only when the chain crosses modules, and merges the cited claims', async () => {
    const crossing = {
      ...draft('x'),
      place: { level: 'file' as const, file: 'orders/service.py', function: null, lines: null },
      why: [
        cited,
        { text: 'the assembler changed', cites: [{ kind: 'diff' as const, file: 'api/assembler/a.py' }] },
      ],
    };
    const asked: string[] = [];
    const engine: Engine = {
      name: 'model',
      model: 'm',
      diagnose: async () => ({ draft: crossing, usage: usage(10), stopped: 'submitted' }),
      delegate: async (_i, _t, _c, module) => {
        asked.push(`${module.name}:${module.files.join(',')}`);
        const found = {
          text: `in ${module.name}`,
          cites: [{ kind: 'code' as const, file: module.files[0] ?? '', lines: { start: 1, end: 1 } }],
        };
        return { draft: { ...crossing, why: [found, cited] }, usage: usage(3), stopped: 'submitted' };
      },
    };
    const modules = moduleMap({ modules: [] });
    const { diagnosis } = await diagnoseFailure(issue, triage, ctx, {
      engine,
      checker,
      log: silent,
      modules,
    });
    expect(asked).toEqual(['orders:orders/service.py', 'api/assembler:api/assembler/a.py']);
    expect(diagnosis.why.map((c) => c.text)).toEqual([
      'cited',
      'in orders',
      'in api/assembler',
      'the assembler changed',
    ]);
    expect(diagnosis.usage).toMatchObject({ input_tokens: 16, tool_calls: 3 });

    asked.length = 0;
    const single = { ...crossing, why: [cited] };
    const one: Engine = {
      ...engine,
      diagnose: async () => ({ draft: single, usage: usage(1), stopped: 'submitted' }),
    };
    await diagnoseFailure(issue, triage, ctx, { engine: one, checker, log: silent, modules });
    expect(asked).toEqual([]);
  });
});
