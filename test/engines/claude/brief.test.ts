import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstMessage } from '../../../src/engines/claude/index.ts';
import { hugeIssue, openRunFixture, type RunFixture } from '../../tools/run-fixture.ts';
import { TRIAGE } from './drafts.ts';

let run: RunFixture;

beforeAll(async () => {
  run = await openRunFixture();
});
afterAll(async () => {
  await run.close();
});

describe('firstMessage', () => {
  it('holds the verdict, the issue id, the facts with indexes and evidence ids, and the change files', () => {
    const issue = run.ctx.facts.issues[0];
    if (issue === undefined) throw new Error('fixture has an issue');

    const text = firstMessage(issue, TRIAGE, run.ctx);

    expect(text).toContain('"verdict":"caused_by_change"');
    expect(text).toContain('issue_id "001"');
    expect(text).toContain('{"index":0,"type":"error","value":"ValueError: buyer_id is required"');
    expect(text).toContain(run.ids.trace);
    expect(text).toContain('"file":"src/order/assembler.py","status":"modified"');
    expect(text).toContain('"level":"line","file":"src/order/create_order.py","function":"create_order"');
  });

  it('stays small whatever the report holds', () => {
    const triage = {
      ...TRIAGE,
      signals: Array.from({ length: 100 }, () => ({ ...TRIAGE.signals[0], detail: 'd'.repeat(2_000) })),
    } as typeof TRIAGE;

    const text = firstMessage(hugeIssue('big'), triage, run.ctx);

    expect(text.length).toBeLessThan(12_000);
    expect(text).toContain('"facts_truncated":true');
    expect(text).toContain('"signals_truncated":true');
  });
});
