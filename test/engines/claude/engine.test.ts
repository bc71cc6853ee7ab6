import { APIError } from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClaudeBudget,
  type ClaudeEngineDeps,
  createClaudeClient,
  createClaudeEngine,
  type DiagnoseRequest,
} from '../../../src/engines/claude/index.ts';
import { LIMITS } from '../../../src/tools/index.ts';
import {
  lastMessageText,
  lastToolResults,
  MessagesServer,
  type RecordedRequest,
  reply,
  resultText,
  type ScriptStep,
} from '../../helpers/messages-server.ts';
import { openRunFixture, type RunFixture } from '../../tools/run-fixture.ts';
import { DRAFT, HOSTILE_DRAFT, SKILL, TRIAGE } from './drafts.ts';

const BUDGET: ClaudeBudget = { toolCalls: 10, tokens: 100_000, wallMs: 30_000 };
const MODEL = 'claude-test-model';

let run: RunFixture;
let server: MessagesServer | null = null;
let sleeps: number[] = [];

beforeAll(async () => {
  run = await openRunFixture();
});
afterAll(async () => {
  await run.close();
});
afterEach(async () => {
  await server?.close();
  server = null;
});

/** The real SDK client against a scripted loopback Messages API, with recorded (not slept) backoff. */
async function engineFor(
  script: ScriptStep[],
  options: { timeoutMs?: number } & Partial<ClaudeEngineDeps> = {},
) {
  server = await MessagesServer.start(script);
  sleeps = [];
  const client = createClaudeClient({
    apiKey: 'test-key',
    baseURL: server.url,
    timeoutMs: options.timeoutMs ?? 5_000,
  });
  return createClaudeEngine({
    client,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
}

function request(budget: Partial<ClaudeBudget> = {}): DiagnoseRequest {
  return {
    issueId: '001',
    ctx: run.ctx,
    triage: TRIAGE,
    skill: SKILL,
    budget: { ...BUDGET, ...budget },
    model: MODEL,
    tools: { baseCode: run.baseCode },
  };
}

function submit(draft: unknown = DRAFT) {
  return reply.message([reply.toolUse('submit_diagnosis', draft)]);
}

function requests(): RecordedRequest[] {
  return server?.requests ?? [];
}

describe('Claude engine: the tool loop', () => {
  it('reads through the tools, then submits; the draft, usage and requests are as sent', async () => {
    const engine = await engineFor([
      reply.message(
        [reply.text('Reading the facts.'), reply.toolUse('get_issue_facts', { issue_id: '001' }, 'toolu_a')],
        {
          usage: { input_tokens: 1_200, output_tokens: 40, cache_creation_input_tokens: 900 },
        },
      ),
      (req) => {
        expect(resultText(lastToolResults(req)[0] ?? { type: 'tool_result', tool_use_id: '' })).toContain(
          'buyer_id is required',
        );
        return reply.message(
          [
            reply.toolUse('get_file_diff', { path: 'src/order/assembler.py' }, 'toolu_b'),
            reply.toolUse('read_file', { path: 'src/order/create_order.py', start: 5, end: 8 }, 'toolu_c'),
          ],
          { usage: { input_tokens: 300, output_tokens: 60, cache_read_input_tokens: 900 } },
        );
      },
      reply.message([reply.toolUse('submit_diagnosis', DRAFT)], {
        usage: { input_tokens: 200, output_tokens: 500, cache_read_input_tokens: 1_500 },
      }),
    ]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome.stopped).toBe('submitted');
    expect(outcome.draft).toEqual(DRAFT);
    expect(outcome.error).toBeNull();
    expect(outcome.usage).toMatchObject({
      input_tokens: 1_700,
      output_tokens: 600,
      cache_creation_input_tokens: 900,
      cache_read_input_tokens: 2_400,
      tool_calls: 3,
    });
    expect(outcome.usage.latency_ms).toBeGreaterThan(0);
    expect(outcome.transcript.filter((s) => s.kind === 'tool').map((s) => s.detail.split(' ')[0])).toEqual([
      'get_issue_facts',
      'get_file_diff',
      'read_file',
    ]);
    expect(server?.unexpected).toEqual([]);
    expect(server?.remaining()).toBe(0);
  });

  it('caches the Skill text, lists every tool, and never sends whole logs or files', async () => {
    const engine = await engineFor([
      reply.message([reply.toolUse('read_evidence', { id: run.ids.log, from: 1, to: 1_000 })]),
      reply.message([reply.toolUse('read_file', { path: 'src/big.py' })]),
      submit(),
    ]);

    await engine.diagnoseFailure(request());

    const sent = requests();
    expect(sent).toHaveLength(3);
    for (const req of sent) {
      expect(req.headers.authorization).toBe('Bearer test-key');
      expect(req.body.model).toBe(MODEL);
      expect(req.body.system).toEqual([
        { type: 'text', text: SKILL.system, cache_control: { type: 'ephemeral' } },
      ]);
      expect(req.body.tools?.map((t) => ('name' in t ? t.name : t.type))).toEqual([
        'get_issue_facts',
        'read_evidence',
        'read_file',
        'search_code',
        'find_symbol',
        'get_file_diff',
        'list_change_files',
        'submit_diagnosis',
      ]);
      expect(req.body.tool_choice).toEqual({ type: 'auto' });
      for (const message of req.body.messages) expect(JSON.stringify(message).length).toBeLessThan(20_000);
      for (const result of lastToolResults(req))
        expect(resultText(result).length).toBeLessThanOrEqual(LIMITS.maxResultChars);
      const last = req.body.messages.at(-1)?.content;
      expect(Array.isArray(last) && last.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    }
    const submitTool = sent[0]?.body.tools?.find((t) => 'name' in t && t.name === 'submit_diagnosis');
    expect(submitTool).toMatchObject({
      input_schema: { type: 'object', required: expect.arrayContaining(['issue_id', 'why']) },
    });
    const first = sent[0]?.body.messages[0];
    const text = JSON.stringify(first);
    expect(text).toContain('caused_by_change');
    expect(text).toContain('001');
    expect(text).toContain('buyer_id is required');
    expect(text).toContain(run.ids.log);
    expect(text).not.toContain('step 1000');
    expect(text.length).toBeLessThan(12_000);
    expect(lastMessageText(sent[1] as RecordedRequest)).not.toContain('step 1000');
    expect(lastMessageText(sent[2] as RecordedRequest)).not.toContain('line_300');
  });

  it('answers a bad tool input with an error result and carries on', async () => {
    const engine = await engineFor([
      reply.message([reply.toolUse('read_file', { path: 7 }), reply.toolUse('delete_repo', {})]),
      (req) => {
        const results = lastToolResults(req);
        expect(results.map((r) => r.is_error)).toEqual([true, true]);
        expect(resultText(results[0] as never)).toContain('invalid input for read_file');
        return submit();
      },
    ]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome).toMatchObject({ stopped: 'submitted', usage: { tool_calls: 2 } });
  });
});

describe('Claude engine: submissions', () => {
  it('gives an invalid submission one correction turn with the schema error', async () => {
    const engine = await engineFor([
      submit({ ...DRAFT, verdict: 'guilty', why: 'it broke' }),
      (req) => {
        const [result] = lastToolResults(req);
        expect(result?.is_error).toBe(true);
        expect(resultText(result as never)).toContain('verdict');
        expect(resultText(result as never)).toContain('why');
        return submit();
      },
    ]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome).toMatchObject({ stopped: 'submitted', draft: DRAFT });
    expect(outcome.transcript.map((s) => s.kind)).toContain('correction');
  });

  it('gives up with MODEL_REPLY_INVALID when the correction is invalid too', async () => {
    const engine = await engineFor([submit({ issue_id: '001' }), submit({ ...DRAFT, issue_id: '002' })]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome).toMatchObject({ stopped: 'error', draft: null, error: { code: 'MODEL_REPLY_INVALID' } });
    expect(outcome.error?.message).toContain('this diagnosis is for issue "001"');
    expect(outcome.session.pending).toBeNull();
  });

  it('asks once for a submission when the model answers in prose, forcing the tool', async () => {
    const engine = await engineFor([reply.message([reply.text('It is the assembler.')]), submit()]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome.stopped).toBe('submitted');
    expect(requests()[1]?.body.tool_choice).toEqual({ type: 'tool', name: 'submit_diagnosis' });
  });

  it('passes hostile drafts through unchanged and records them: catching them is the checker’s job', async () => {
    const engine = await engineFor([
      reply.message([reply.toolUse('read_evidence', { id: run.ids.log, from: 500, to: 500 })]),
      (req) => {
        expect(resultText(lastToolResults(req)[0] as never)).toContain('IGNORE PREVIOUS INSTRUCTIONS');
        return submit(HOSTILE_DRAFT);
      },
    ]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome.stopped).toBe('submitted');
    expect(outcome.draft).toEqual(HOSTILE_DRAFT);
    expect(outcome.transcript.find((s) => s.kind === 'submit')?.detail).toContain('valid');
  });
});

describe('Claude engine: budgets', () => {
  it('forces a submission when a call goes past the tool budget, and reports the budget', async () => {
    const engine = await engineFor([
      reply.message([
        reply.toolUse('list_change_files', {}),
        reply.toolUse('get_file_diff', { path: 'src/order/assembler.py' }),
      ]),
      (req) => {
        const results = lastToolResults(req);
        expect(results[1]?.is_error).toBe(true);
        expect(lastMessageText(req)).toContain('budget');
        return submit({ ...DRAFT, verdict: 'need_evidence', category: 'need_evidence' });
      },
    ]);

    const outcome = await engine.diagnoseFailure(request({ toolCalls: 1 }));

    expect(outcome).toMatchObject({ stopped: 'budget', exhausted: 'tool_calls', usage: { tool_calls: 1 } });
    expect(outcome.draft?.verdict).toBe('need_evidence');
    expect(requests()[1]?.body.tool_choice).toEqual({ type: 'tool', name: 'submit_diagnosis' });
  });

  it('forces the submission after the last allowed call without counting it as over budget', async () => {
    const engine = await engineFor([reply.message([reply.toolUse('list_change_files', {})]), submit()]);

    const outcome = await engine.diagnoseFailure(request({ toolCalls: 1 }));

    expect(outcome).toMatchObject({ stopped: 'submitted', exhausted: null });
    expect(requests()[1]?.body.tool_choice).toEqual({ type: 'tool', name: 'submit_diagnosis' });
  });

  it('stops when the tokens are spent, with the usage so far', async () => {
    const engine = await engineFor([
      reply.message([reply.toolUse('list_change_files', {})], {
        usage: { input_tokens: 4_000, output_tokens: 100 },
      }),
      submit(),
    ]);

    const outcome = await engine.diagnoseFailure(request({ tokens: 3_000 }));

    expect(outcome).toMatchObject({ stopped: 'budget', exhausted: 'tokens', draft: null });
    expect(outcome.usage).toMatchObject({ input_tokens: 4_000, output_tokens: 100, tool_calls: 1 });
    expect(server?.remaining()).toBe(1);
  });

  it('aborts a request that outlives the wall-time budget', async () => {
    const engine = await engineFor([{ ...submit(), delayMs: 2_000 }]);

    const outcome = await engine.diagnoseFailure(request({ wallMs: 300 }));

    expect(outcome).toMatchObject({ stopped: 'budget', exhausted: 'wall_ms', draft: null });
    expect(outcome.usage.latency_ms).toBeLessThan(2_000);
  });
});

describe('Claude engine: API failures', () => {
  it('retries a 429 after the delay the API asks for', async () => {
    const engine = await engineFor([reply.rateLimited(2), submit()]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome.stopped).toBe('submitted');
    expect(sleeps).toEqual([2_000]);
    expect(outcome.transcript.find((s) => s.kind === 'retry')?.detail).toContain('429 rate_limit_error');
  });

  it('retries a timed-out request', async () => {
    const engine = await engineFor([{ ...submit(), delayMs: 1_000 }, submit()], { timeoutMs: 150 });

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome.stopped).toBe('submitted');
    expect(sleeps).toHaveLength(1);
  });

  it('turns a persistent 529 into MODEL_ERROR after backing off, keeping the cause', async () => {
    const engine = await engineFor([
      reply.overloaded(),
      reply.overloaded(),
      reply.overloaded(),
      reply.overloaded(),
    ]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome).toMatchObject({ stopped: 'error', draft: null, error: { code: 'MODEL_ERROR' } });
    expect(outcome.error?.message).toContain('529 overloaded_error');
    expect(outcome.error?.cause).toBeInstanceOf(APIError);
    expect(sleeps).toEqual([1_000, 2_000, 4_000]);
    expect(requests()).toHaveLength(4);
  });

  it('does not retry a request the API rejects', async () => {
    const engine = await engineFor([reply.badRequest('max_tokens: too large'), submit()]);

    const outcome = await engine.diagnoseFailure(request());

    expect(outcome.error).toMatchObject({ code: 'MODEL_ERROR' });
    expect(outcome.error?.message).toContain('not retryable');
    expect(requests()).toHaveLength(1);
  });

  it('refuses to start on an unknown issue or a bad budget', async () => {
    const engine = await engineFor([]);

    await expect(engine.diagnoseFailure({ ...request(), issueId: '404' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(engine.diagnoseFailure(request({ wallMs: -1 }))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('Claude engine: repair round', () => {
  it('continues the conversation with the checker findings and returns the new submission', async () => {
    const repaired = { ...DRAFT, why: [{ ...DRAFT.why[0], text: 'The mapping of buyer_id was removed.' }] };
    const engine = await engineFor([
      reply.message([reply.toolUse('submit_diagnosis', HOSTILE_DRAFT, 'toolu_submit')]),
      (req) => {
        const [result] = lastToolResults(req);
        expect(result).toMatchObject({ tool_use_id: 'toolu_submit', is_error: true });
        expect(resultText(result as never)).toContain('quote_not_in_evidence at why.0.cites.0');
        return reply.message([
          reply.toolUse('read_file', { path: 'src/order/assembler.py', start: 1, end: 5 }),
        ]);
      },
      submit(repaired),
    ]);
    const first = await engine.diagnoseFailure(request());

    const second = await engine.repairDraft({
      session: first.session,
      findings: 'quote_not_in_evidence at why.0.cites.0: the quote is not in the evidence',
      budget: { toolCalls: 3, tokens: 50_000, wallMs: 30_000 },
    });

    expect(first.draft).toEqual(HOSTILE_DRAFT);
    expect(second).toMatchObject({ stopped: 'submitted', draft: repaired, usage: { tool_calls: 1 } });
    const [, repairRequest] = requests();
    expect(repairRequest?.body.messages).toHaveLength(3);
    expect(repairRequest?.body.system).toEqual(requests()[0]?.body.system);
    await expect(
      engine.repairDraft({ session: { ...second.session, pending: null }, findings: 'x', budget: BUDGET }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
