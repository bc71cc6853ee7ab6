import { describe, expect, it } from 'vitest';
import { GerritError } from '../../src/gerrit/index.ts';
import { Counters, countingStages } from '../../src/service/index.ts';
import type { Job, Run } from '../../src/store/runs/index.ts';
import { failure, sampleRun } from '../publish/sample.ts';

const job = (stage: Job['stage']) => ({ stage }) as Job;
const run = {} as Run;
const usage = {
  input_tokens: 120,
  output_tokens: 30,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  tool_calls: 2,
  latency_ms: 5,
};

describe('countingStages', () => {
  it("adds each diagnosis's tokens and counts Gerrit and model errors, passing everything through", async () => {
    const counters = new Counters();
    const diagnosis = sampleRun([failure({ usage }), failure({ issue_id: '2', usage })]);
    const stages = countingStages(async (j) => {
      if (j.stage === 'publish') throw new GerritError('GERRIT_ERROR', 'POST /a/x', 503, 'busy');
      if (j.stage === 'context') throw new Error('not a coded error');
      return { output: j.stage === 'diagnose' ? diagnosis : { other: true } };
    }, counters);
    expect(await stages(job('diagnose'), run)).toEqual({ output: diagnosis });
    await stages(job('scrape'), run);
    await expect(stages(job('publish'), run)).rejects.toMatchObject({ code: 'GERRIT_ERROR' });
    await expect(stages(job('context'), run)).rejects.toThrow('not a coded error');
    expect(counters.tokens).toEqual({ input: 240, output: 60 });
    expect(counters.errors).toEqual({ gerrit: 1, model: 0 });
  });
});
