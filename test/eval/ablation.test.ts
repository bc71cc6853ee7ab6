import { afterEach, describe, expect, it } from 'vitest';
import { PLATFORMS_DIR } from '../../src/cli/main.ts';
import { createEngine, DEFAULT_REPAIR_BUDGET } from '../../src/diagnose/index.ts';
import { PLAIN_SYSTEM } from '../../src/engines/claude/index.ts';
import { ABLATIONS, type ModelRow, planRows } from '../../src/eval/ablations.ts';
import { runCase } from '../../src/eval/run.ts';
import type { DiagnosisDraft } from '../../src/schemas/index.ts';
import { loadSkill } from '../../src/skill/index.ts';
import { CORPUS } from '../acceptance/run-case.ts';
import { type Author, scriptedModel } from '../acceptance/scripted-model.ts';
import { MessagesServer, type RecordedRequest } from '../helpers/messages-server.ts';

const FILE = 'pricing/price.py';
let server: MessagesServer | undefined;
afterEach(async () => server?.close());

/** A draft a model without the gate could well submit: a line nobody granted, a fact that does not exist. */
const overreaching: Author = (r): DiagnosisDraft => ({
  issue_id: r.issueId,
  test: r.test,
  report_url: r.reportUrl,
  verdict: 'caused_by_change',
  category: 'code_regression',
  place: { level: 'line', file: FILE, function: 'gross_price', lines: { start: 400, end: 400 } },
  why: [
    {
      text: 'the price is truncated at line 400',
      cites: [{ kind: 'fact', issue_id: r.issueId, index: 999 }],
    },
  ],
  change: null,
  fix: null,
  verify: ['pytest tests/test_price.py'],
  missing_evidence: [],
  alternatives: [],
});

/** price-rounding through the eval harness with the model row's input, gate and delegation. */
async function runRow(row: ModelRow) {
  server = await MessagesServer.start(Array.from({ length: 24 }, () => scriptedModel(FILE, overreaching)));
  const engine = await createEngine({
    engine: 'claude',
    apiKey: 'test-key',
    baseURL: server.url,
    model: 'claude-scripted',
    budget: { toolCalls: 6, tokens: 100_000, wallMs: 60_000 },
    repairBudget: DEFAULT_REPAIR_BUDGET,
    input: row.input,
  });
  const result = await runCase(`${CORPUS}price-rounding`, {
    engine,
    delegation: row.delegation,
    gate: row.gate,
    platformsDir: PLATFORMS_DIR,
  });
  const first = server.requests[0] as RecordedRequest;
  const opening = first.body.messages[0]?.content ?? '';
  const brief =
    typeof opening === 'string'
      ? opening
      : opening.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return {
    result,
    system: JSON.stringify(first.body.system),
    tools: (first.body.tools ?? []).map((t) => ('name' in t ? String(t.name) : '')).sort(),
    brief,
  };
}

function rowOf(ablation: (typeof ABLATIONS)[number]): ModelRow {
  const plan = planRows([ablation], 'claude', true)[0];
  if (plan?.run !== 'claude') throw new Error(`${ablation} is not a model row`);
  return plan;
}

describe('ablation rows', () => {
  it('plans every model row with a key and the claude engine, none without a key', () => {
    expect(planRows(ABLATIONS, 'claude', true).map((p) => p.run)).toEqual([
      'rules',
      'claude',
      'claude',
      'claude',
      'claude',
    ]);
    expect(rowOf('diff+model')).toMatchObject({ input: 'diff', gate: false, delegation: false });
    expect(rowOf('facts+model')).toMatchObject({ input: 'facts', gate: false, delegation: false });
    expect(rowOf('facts+gate+skill')).toMatchObject({ input: 'skill', gate: true, delegation: false });
    expect(rowOf('+delegation')).toMatchObject({ input: 'skill', gate: true, delegation: true });
    expect(planRows(ABLATIONS, 'claude', false).filter((p) => p.run === 'skip')).toHaveLength(4);
  });

  it('diff+model: the failure message and the diff only, no Skill, and the draft goes out ungated', async () => {
    const { result, system, tools, brief } = await runRow(rowOf('diff+model'));
    expect(system).toContain(JSON.stringify(PLAIN_SYSTEM).slice(1, -1));
    expect(tools).toEqual(['get_file_diff', 'list_change_files', 'read_file', 'submit_diagnosis']);
    expect(brief).toContain('The test failed with:');
    expect(brief).not.toMatch(/Deterministic triage|candidates|Facts of failure/);
    expect(result.failures.length).toBeGreaterThan(0);
    for (const f of result.failures) {
      expect(f.tokens).toBeGreaterThan(0);
      expect(f.place).toMatchObject({ level: 'line', lines: { start: 400, end: 400 } });
      expect(f.check.before.unsupported).toBeGreaterThan(0);
      expect(f.check.after).toEqual(f.check.before);
      expect(f.score.falsePrecise).toBe(true);
    }
  });

  it('facts+model: the structured facts without triage or located candidates, all read tools, ungated', async () => {
    const { result, system, tools, brief } = await runRow(rowOf('facts+model'));
    expect(system).not.toContain((await loadSkill()).system.slice(0, 200));
    expect(tools).toContain('get_issue_facts');
    expect(tools).toHaveLength(8);
    expect(brief).toContain('Facts of failure');
    expect(brief).not.toMatch(/Deterministic triage|"candidates"/);
    for (const f of result.failures) expect(f.place.level).toBe('line');
  });

  it('facts+gate+skill: the same draft is repaired once, then degraded; unsupported claims drop', async () => {
    const { result, system, brief } = await runRow(rowOf('facts+gate+skill'));
    expect(system).toContain(JSON.stringify((await loadSkill()).system.slice(0, 200)).slice(1, -1));
    expect(brief).toContain('Deterministic triage');
    for (const f of result.failures) {
      expect(f.place.level).not.toBe('line');
      expect(f.check.after.unsupported).toBeLessThan(f.check.before.unsupported);
      expect(f.score.falsePrecise).not.toBe(true);
    }
  });
});
