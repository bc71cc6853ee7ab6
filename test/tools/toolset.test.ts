import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DiagnosisError } from '../../src/errors/index.ts';
import { SKILL_TOOLS } from '../../src/skill/index.ts';
import { defineTool, LIMITS, readTools, toolset } from '../../src/tools/index.ts';
import { openRunFixture, type RunFixture } from './run-fixture.ts';

let run: RunFixture;

beforeAll(async () => {
  run = await openRunFixture();
});
afterAll(async () => {
  await run.close();
});

describe('toolset definitions', () => {
  it('lists the Skill read tools with JSON schemas from their zod inputs', () => {
    const tools = toolset(run.ctx, { maxCalls: 10 });

    expect(tools.definitions.map((d) => d.name)).toEqual(
      SKILL_TOOLS.filter((name) => name !== 'submit_diagnosis'),
    );
    const readFile = tools.definitions.find((d) => d.name === 'read_file');
    expect(readFile?.input_schema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' }, start: { type: 'integer' }, end: { type: 'integer' } },
      required: ['path'],
      additionalProperties: false,
    });
    for (const definition of tools.definitions) {
      expect(definition.input_schema).not.toHaveProperty('$schema');
      expect(definition.description.length).toBeGreaterThan(40);
    }
  });
});

describe('toolset dispatcher', () => {
  it('counts every call, valid or not, and refuses calls past the budget without running them', async () => {
    const tools = toolset(run.ctx, { maxCalls: 3 });

    const first = await tools.call('list_change_files', {});
    const bad = await tools.call('read_file', { path: 42 });
    const unknown = await tools.call('rm_rf', {});
    const refused = await tools.call('list_change_files', {});

    expect(first.is_error).toBe(false);
    expect(bad).toMatchObject({ is_error: true, refused: false });
    expect(bad.content).toContain('invalid input for read_file');
    expect(bad.content).toContain('path');
    expect(unknown.content).toContain('unknown tool "rm_rf"');
    expect(refused).toMatchObject({ is_error: true, refused: true });
    expect(refused.content).toContain('submit_diagnosis');
    expect(tools.calls).toBe(3);
    expect(tools.exhausted).toBe(true);
  });

  it('treats a missing input as empty and rejects unknown fields', async () => {
    const tools = toolset(run.ctx, { maxCalls: 5 });

    const empty = await tools.call('list_change_files', undefined);
    const extra = await tools.call('read_file', { path: 'src/big.py', start_line: 3 });

    expect(empty.is_error).toBe(false);
    expect(extra.is_error).toBe(true);
    expect(extra.content).toContain('start_line');
  });

  it('refuses an oversized result instead of passing it on', async () => {
    const flood = defineTool({
      name: 'flood',
      description: 'returns too much',
      input: z.object({}),
      run: async () => ({ text: 'x'.repeat(LIMITS.maxResultChars) }),
    });
    const tools = toolset(run.ctx, { maxCalls: 5, tools: [flood] });

    const outcome = await tools.call('flood', {});

    expect(outcome.is_error).toBe(true);
    expect(outcome.content).toContain('exceeds');
    expect(outcome.content.length).toBeLessThan(200);
  });

  it('lets real failures through: a broken repository is not the model’s mistake', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'git fails',
      input: z.object({}),
      run: async () => {
        throw new DiagnosisError('GIT_ERROR', 'git cat-file died');
      },
    });
    const tools = toolset(run.ctx, { maxCalls: 5, tools: [broken] });

    await expect(tools.call('broken', {})).rejects.toMatchObject({ code: 'GIT_ERROR' });
  });

  it('offers extra evidence only when the caller allows it', async () => {
    const allowed = toolset(run.ctx, { maxCalls: 5, extraEvidence: [run.ids.unrelated] });

    const outcome = await allowed.call('read_evidence', { id: run.ids.unrelated });

    expect(outcome.is_error).toBe(false);
    expect(JSON.parse(outcome.content)).toMatchObject({ text: '1\tfrom another run' });
    expect(readTools()).toHaveLength(7);
  });
});
