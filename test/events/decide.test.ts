import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../src/errors/index.ts';
import { decideOnEvent, EventPolicy } from '../../src/events/index.ts';
import { createLogger } from '../../src/log.ts';

// Payloads recorded from a real Gerrit 3.10.2 (see test/fixtures/gerrit-events/README.md); the
// variants below edit copies of them.
type Event = Record<string, unknown> & {
  change: Record<string, unknown>;
  patchSet: Record<string, unknown>;
  author: Record<string, unknown>;
  approvals: Record<string, unknown>[];
  comment: string;
};
const fixture = (name: string): Event =>
  JSON.parse(readFileSync(new URL(`../fixtures/gerrit-events/${name}.json`, import.meta.url), 'utf8'));

const CI_FAILED = fixture('comment-added-ci-minus1');
const REVISION = CI_FAILED.patchSet.revision;
const policy = EventPolicy.parse({ ci_accounts: ['ci-bot'], self_account: 'diagnosis-bot' });
const silent = { info: () => {} };
const decide = (event: unknown, p = policy) => decideOnEvent(event, p, silent);

function ciComment(comment: string, approvals: Record<string, unknown>[]): Event {
  return { ...structuredClone(CI_FAILED), comment, approvals };
}
function humanComment(comment: string, author: Record<string, unknown> = { username: 'jane' }): Event {
  return { ...structuredClone(fixture('comment-added-retry-command')), comment, author };
}
function invalid(event: unknown): DiagnosisError {
  try {
    decide(event);
  } catch (err) {
    if (err instanceof DiagnosisError) return err;
    throw err;
  }
  throw new Error('expected EVENT_INVALID');
}

describe('decideOnEvent on recorded events', () => {
  it('supersedes earlier runs on patchset-created', () => {
    expect(decide(fixture('patchset-created-2'))).toEqual({
      action: 'supersede',
      project: 'events-demo',
      change_number: 1,
      patchset: 2,
      revision: fixture('patchset-created-2').patchSet.revision,
      reason: 'patchset 2 of change 1 uploaded: runs for earlier patchsets are stale',
    });
  });

  it('diagnoses a CI Verified -1, taking the report URL without the full stop after it', () => {
    expect(decide(CI_FAILED)).toEqual({
      action: 'diagnose',
      trigger: 'ci_vote',
      project: 'events-demo',
      branch: 'master',
      change_number: 1,
      patchset: 1,
      revision: REVISION,
      ref: 'refs/changes/01/1/1',
      report_url: 'http://ci.example.test/job/7/report/index.html',
      requested_by: 'ci-bot',
      reason: 'ci-bot voted Verified changed from 0 to -1 on patchset 1',
    });
  });

  it('diagnoses a repeated -1 (no oldValue), the URL taken from inside parentheses', () => {
    expect(decide(fixture('comment-added-ci-minus1-again'))).toMatchObject({
      action: 'diagnose',
      report_url: 'http://ci.example.test/job/8/report/index.html',
      reason: 'ci-bot voted Verified still -1 on patchset 1',
    });
  });

  it('diagnoses on the retry command in a patchset-level comment, whatever its case', () => {
    expect(decide(fixture('comment-added-retry-command'))).toMatchObject({
      action: 'diagnose',
      trigger: 'retry_command',
      patchset: 1,
      report_url: null,
      requested_by: 'admin',
      reason: 'admin asked for a new diagnosis',
    });
  });

  it('ignores a CI +1, our own comment quoting the command, and other event types', () => {
    expect(decide(fixture('comment-added-ci-plus1'))).toEqual({
      action: 'ignore',
      reason: 'comment by CI account ci-bot carries no negative Verified vote',
    });
    expect(decide(fixture('comment-added-self'))).toEqual({
      action: 'ignore',
      reason: 'comment by our own account diagnosis-bot',
    });
    expect(decide(fixture('ref-updated'))).toEqual({
      action: 'ignore',
      reason: 'event type ref-updated is not handled',
    });
  });

  it('logs an unhandled type through a pino logger', () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    decideOnEvent(fixture('ref-updated'), policy, createLogger({ level: 'info', destination }));

    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { level: 30, event_type: 'ref-updated', msg: 'Gerrit event type not handled; ignored' },
    ]);
  });
});

describe('decideOnEvent rules', () => {
  it('matches CI accounts by email too, case-insensitively', () => {
    const byEmail = EventPolicy.parse({ ci_accounts: ['CI-Bot@Example.com'], self_account: 'diagnosis-bot' });
    expect(decide(CI_FAILED, byEmail).action).toBe('diagnose');
    expect(decide(CI_FAILED, { ...policy, ci_accounts: ['other-ci'] })).toEqual({
      action: 'ignore',
      reason: 'comment by ci-bot is neither a CI vote nor a retry request',
    });
  });

  it('reads only the configured label, and numbers as well as strings', () => {
    const codeReview = [{ type: 'Code-Review', value: '-1', oldValue: '0' }];
    expect(decide(ciComment('Patch Set 1: Code-Review-1', codeReview)).action).toBe('ignore');
    expect(decide(ciComment('Patch Set 1:', [{ type: 'Verified', value: -2 }])).action).toBe('diagnose');
    const ownLabel = { ...policy, verified_label: 'CI-Verified' };
    const ciVerified = [{ type: 'CI-Verified', value: '-1', oldValue: '1' }];
    expect(decide(ciComment('Patch Set 1: CI-Verified-1', ciVerified), ownLabel)).toMatchObject({
      action: 'diagnose',
      report_url: null,
      reason: 'ci-bot voted CI-Verified changed from 1 to -1 on patchset 1',
    });
  });

  it('uses capture group 1 of a configured report URL pattern', () => {
    const comment = 'Patch Set 1: Verified-1\n\nBuild: https://ci/b/1 Report: https://ci/b/1/allure/';
    const reportOnly = { ...policy, report_url_pattern: 'report: (\\S+)' };
    expect(decide(ciComment(comment, CI_FAILED.approvals), reportOnly)).toMatchObject({
      report_url: 'https://ci/b/1/allure/',
    });
    expect(decide(ciComment(comment, CI_FAILED.approvals))).toMatchObject({ report_url: 'https://ci/b/1' });
  });

  it('wants the retry command on a line of its own, from a human', () => {
    expect(decide(humanComment('Patch Set 1:\n\n  ci-diagnosis: retry  \nthanks')).action).toBe('diagnose');
    expect(decide(humanComment('Patch Set 1:\n\nplease ci-diagnosis: retry')).action).toBe('ignore');
    expect(decide(humanComment('Patch Set 1:\n\n> ci-diagnosis: retry\nno, do not')).action).toBe('ignore');
    const fromCi = ciComment('Patch Set 1:\n\nci-diagnosis: retry', [{ type: 'Verified', value: '0' }]);
    expect(decide(fromCi).action).toBe('ignore');
    const custom = { ...policy, retry_command: '/rediagnose' };
    expect(decide(humanComment('Patch Set 1:\n\n/REDIAGNOSE'), custom).action).toBe('diagnose');
  });

  it('names the requester by email when the account has no username', () => {
    const noUsername = humanComment('ci-diagnosis: retry', { username: '', email: 'jane@example.com' });
    expect(decide(noUsername)).toMatchObject({ requested_by: 'jane@example.com' });
  });

  it('ignores projects and branches outside the allow-lists', () => {
    const scoped = EventPolicy.parse({ ...policy, projects: ['events-demo'], branches: ['refs/heads/main'] });
    expect(decide(CI_FAILED, scoped)).toEqual({
      action: 'ignore',
      reason: 'branch master of events-demo is not in the allow-list',
    });
    expect(decide(CI_FAILED, { ...scoped, branches: ['main', 'refs/heads/master'] }).action).toBe('diagnose');
    expect(decide(fixture('patchset-created-1'), { ...policy, projects: ['other'] })).toEqual({
      action: 'ignore',
      reason: 'project events-demo is not in the allow-list',
    });
  });
});

describe('decideOnEvent on invalid events', () => {
  it('rejects what is not an event object', () => {
    for (const raw of [null, 'comment-added', 42, [CI_FAILED]]) {
      expect(invalid(raw)).toMatchObject({
        code: 'EVENT_INVALID',
        message: 'Gerrit event is not a JSON object',
      });
    }
    expect(invalid({ change: {} })).toMatchObject({
      code: 'EVENT_INVALID',
      message: 'Gerrit event has no "type"',
    });
  });

  it('names the event type and the path of a missing or malformed field', () => {
    const noRevision = structuredClone(CI_FAILED);
    delete noRevision.patchSet.revision;
    expect(invalid(noRevision)).toMatchObject({
      code: 'EVENT_INVALID',
      input: 'patchSet.revision',
      message: expect.stringMatching(/^Gerrit comment-added event: patchSet\.revision: /),
    });

    const { change: _, ...noChange } = fixture('patchset-created-1');
    expect(invalid(noChange).message).toMatch(/^Gerrit patchset-created event: change: /);

    const badVote = ciComment('x', [{ type: 'Verified', value: 'minus one' }]);
    expect(invalid(badVote)).toMatchObject({ input: 'approvals.0.value' });
  });

  it('accepts a comment-added without approvals or comment, as old Gerrits send it', () => {
    const { approvals: _a, comment: _c, ...bare } = structuredClone(CI_FAILED);
    expect(decide(bare).action).toBe('ignore');
  });
});

describe('EventPolicy', () => {
  it('fills the defaults', () => {
    expect(EventPolicy.parse({ ci_accounts: ['ci'], self_account: 'me' })).toMatchObject({
      verified_label: 'Verified',
      retry_command: 'ci-diagnosis: retry',
      report_url_pattern: expect.stringMatching(/^https\?/),
    });
  });

  it('requires the CI accounts and our own, and a pattern that compiles', () => {
    expect(EventPolicy.safeParse({ self_account: 'me' }).success).toBe(false);
    expect(EventPolicy.safeParse({ ci_accounts: [], self_account: 'me' }).success).toBe(false);
    expect(EventPolicy.safeParse({ ci_accounts: ['ci'] }).success).toBe(false);
    const bad = EventPolicy.safeParse({ ci_accounts: ['ci'], self_account: 'me', report_url_pattern: '(' });
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['report_url_pattern'],
      message: 'not a valid regular expression',
    });
  });
});
