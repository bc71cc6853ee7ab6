import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../../src/errors/index.ts';
import type { FactsDocument } from '../../../src/schemas/index.ts';
import { failureSignature } from '../../../src/signals/index.ts';
import {
  IN_MEMORY,
  MIGRATIONS,
  recordFacts,
  SIGNATURES_FILE,
  type SignatureEntry,
  SignatureStore,
} from '../../../src/store/signatures/index.ts';
import { issueWith } from '../../signals/helpers.ts';

const REV_A = 'a'.repeat(40);
const REV_B = 'b'.repeat(40);

function entry(over: Partial<SignatureEntry> = {}): SignatureEntry {
  return {
    signature: '0123456789abcdef',
    test_key: 'checkout#posts the order total',
    project: 'shop',
    branch: 'master',
    change: 1001,
    patchset: 1,
    revision: REV_A,
    outcome: 'failed',
    run_id: 'run-1',
    seen_at: '2026-09-17T10:00:00.000Z',
    ...over,
  };
}

describe('SignatureStore', () => {
  let dir: string;
  let store: SignatureStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'signatures-'));
    store = new SignatureStore(dir);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps one file in its folder, in WAL mode, at the latest schema version', () => {
    expect(store.path).toBe(join(dir, SIGNATURES_FILE));
    const db = new Database(store.path, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  it('records a run once per test: recording it again changes nothing', () => {
    expect(store.record(entry())).toBe(true);
    expect(
      store.record(entry({ seen_at: '2026-09-18T10:00:00.000Z', outcome: 'passed', signature: null })),
    ).toBe(false);
    expect(store.recordAll([entry(), entry({ test_key: 'other' })])).toBe(1);

    const at = store.outcomesAt({ project: 'shop', test_key: entry().test_key, revision: REV_A });
    expect(at).toEqual([entry()]);
  });

  it('finds a signature on the mainline, leaving out this revision and this run', () => {
    store.recordAll([
      entry({
        change: null,
        patchset: null,
        run_id: 'main-1',
        revision: REV_B,
        seen_at: '2026-09-10T10:00:00.000Z',
      }),
      entry({
        change: null,
        patchset: null,
        run_id: 'main-2',
        revision: REV_B,
        seen_at: '2026-09-11T10:00:00.000Z',
      }),
      // This change merged: a mainline run of its own revision is not "without it".
      entry({ change: null, patchset: null, run_id: 'main-3', revision: REV_A }),
      entry({ change: null, patchset: null, run_id: 'main-4', revision: REV_B, branch: 'release-1' }),
      entry({ change: null, patchset: null, run_id: 'main-5', revision: REV_B, project: 'other' }),
      entry({
        change: null,
        patchset: null,
        run_id: 'main-6',
        revision: REV_B,
        signature: 'ffffffffffffffff',
      }),
      entry({
        change: null,
        patchset: null,
        run_id: 'main-7',
        revision: REV_B,
        outcome: 'passed',
        signature: null,
      }),
      entry({ run_id: 'change-run', revision: REV_B }),
    ]);

    const found = store.mainlineOccurrences({
      signature: entry().signature as string,
      project: 'shop',
      branch: 'master',
      excludeRevision: REV_A,
      excludeRunId: 'this-run',
    });

    expect(found.total).toBe(2);
    expect(found.changes).toBe(0);
    expect(found.latest.map((e) => e.run_id)).toEqual(['main-2', 'main-1']);
  });

  it('finds a signature on other changes, leaving out every patchset of this one', () => {
    store.recordAll([
      entry({ change: 1001, patchset: 1, run_id: 'own-ps1' }),
      entry({ change: 1001, patchset: 2, run_id: 'own-ps2' }),
      entry({
        change: 2002,
        patchset: 4,
        run_id: 'other-1',
        branch: 'release-1',
        seen_at: '2026-09-12T10:00:00.000Z',
      }),
      entry({ change: 3003, patchset: 1, run_id: 'other-2', seen_at: '2026-09-13T10:00:00.000Z' }),
      entry({ change: 3003, patchset: 2, run_id: 'other-3', seen_at: '2026-09-14T10:00:00.000Z' }),
      entry({ change: null, patchset: null, run_id: 'mainline' }),
    ]);

    const found = store.otherChangeOccurrences({
      signature: entry().signature as string,
      project: 'shop',
      change: 1001,
      limit: 2,
    });

    expect(found.total).toBe(3);
    expect(found.changes).toBe(2);
    expect(found.latest.map((e) => e.run_id)).toEqual(['other-3', 'other-2']);
    // For a mainline run, every change is another change.
    expect(
      store.otherChangeOccurrences({ signature: entry().signature as string, project: 'shop', change: null })
        .total,
    ).toBe(5);
  });

  it("lists one test's outcomes at one revision, for pass/fail flips", () => {
    store.recordAll([
      entry({ run_id: 'r1', seen_at: '2026-09-17T10:00:00.000Z' }),
      entry({ run_id: 'r2', outcome: 'passed', signature: null, seen_at: '2026-09-17T11:00:00.000Z' }),
      entry({ run_id: 'r3', revision: REV_B }),
      entry({ run_id: 'r4', test_key: 'other test' }),
    ]);

    const at = store.outcomesAt({ project: 'shop', test_key: entry().test_key, revision: REV_A });

    expect(at.map((e) => [e.run_id, e.outcome])).toEqual([
      ['r2', 'passed'],
      ['r1', 'failed'],
    ]);
  });

  it('keeps its data when reopened', () => {
    store.record(entry());
    store.close();
    store = new SignatureStore(dir);

    expect(store.outcomesAt({ project: 'shop', test_key: entry().test_key, revision: REV_A })).toEqual([
      entry(),
    ]);
  });

  it('migrates a file written by the first schema version, keeping its rows', () => {
    store.close();
    const old = join(dir, 'old');
    const path = join(old, SIGNATURES_FILE);
    mkdirSync(old);
    const db = new Database(path);
    db.exec(MIGRATIONS[0] as string);
    db.pragma('user_version = 1');
    db.prepare(
      `INSERT INTO outcomes (signature, test_key, project, branch, change, patchset, revision, outcome, run_id, seen_at)
       VALUES ('0123456789abcdef', 't', 'shop', 'master', NULL, NULL, '${REV_B}', 'failed', 'old-run', '2026-01-01T00:00:00.000Z')`,
    ).run();
    db.close();

    store = new SignatureStore(old);

    const check = new Database(path, { readonly: true });
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      const indexes = check
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'outcomes_by_%'")
        .pluck()
        .all();
      expect(indexes.sort()).toEqual(['outcomes_by_signature', 'outcomes_by_test_revision']);
    } finally {
      check.close();
    }
    expect(
      store.mainlineOccurrences({ signature: '0123456789abcdef', project: 'shop', branch: 'master' }).total,
    ).toBe(1);
  });

  it('refuses a file from a newer program', () => {
    store.close();
    const db = new Database(join(dir, SIGNATURES_FILE));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();

    const err = (() => {
      try {
        store = new SignatureStore(dir);
      } catch (e: unknown) {
        return e;
      }
      return null;
    })();

    expect(err).toBeInstanceOf(DiagnosisError);
    expect((err as DiagnosisError).code).toBe('STORE_ERROR');
    expect((err as DiagnosisError).message).toMatch(/newer than this program/);
    store = new SignatureStore(IN_MEMORY);
  });

  it('rejects invalid entries, naming the run and the test', () => {
    const bad = [
      entry({ signature: null }),
      entry({ change: null, patchset: 3 }),
      entry({ seen_at: 'yesterday' }),
      entry({ change: 0 }),
    ];
    for (const e of bad) {
      expect(() => store.record(e)).toThrow(DiagnosisError);
      expect(() => store.record(e)).toThrow(/run run-1, test checkout#posts the order total/);
    }
    expect(store.outcomesAt({ project: 'shop', test_key: entry().test_key, revision: REV_A })).toEqual([]);
  });

  it('names the file when SQLite fails', () => {
    store.close();
    expect(() => store.record(entry())).toThrow(DiagnosisError);
    expect(() => store.record(entry())).toThrow(new RegExp(`signature store ${dir}.*write failed`));
    store = new SignatureStore(IN_MEMORY);
  });

  it('keeps nothing on disk in memory', () => {
    const memory = new SignatureStore(IN_MEMORY);
    memory.record(entry());
    expect(memory.path).toBe(IN_MEMORY);
    expect(existsSync(IN_MEMORY)).toBe(false);
    memory.close();
  });
});

describe('recordFacts', () => {
  const facts = (over: Partial<FactsDocument['run']> = {}): FactsDocument => ({
    schema_version: 1,
    run: {
      repository: 'shop',
      change_id: 'I0123',
      patchset: 3,
      revision_sha: REV_A,
      report_url: 'http://ci/report/42/',
      platform: 'allure2',
      mode: 'data',
      scraped_at: '2026-09-17T10:00:00.000Z',
      environment: [],
      warnings: [],
      ...over,
    },
    issues: [
      issueWith({ message: 'AssertionError: expected 2690 to be 2290', key: 'cart#US shipping' }),
      issueWith({ message: 'ConnectionRefusedError: [Errno 111] Connection refused', key: 'orders#fetch' }),
    ],
  });

  it('records each failed issue with its signature, defaults from the facts, and known passes', () => {
    const store = new SignatureStore(IN_MEMORY);
    const doc = facts();

    const result = recordFacts(store, doc, {
      run_id: 'ci-42',
      branch: 'master',
      change: 1001,
      passed: ['cart#DE shipping', 'orders#fetch'],
    });

    expect(result).toEqual({ recorded: 3, skipped: 0 });
    const cart = store.outcomesAt({ project: 'shop', test_key: 'cart#US shipping', revision: REV_A });
    expect(cart).toEqual([
      {
        signature: failureSignature(doc.issues[0] as (typeof doc.issues)[0]),
        test_key: 'cart#US shipping',
        project: 'shop',
        branch: 'master',
        change: 1001,
        patchset: 3,
        revision: REV_A,
        outcome: 'failed',
        run_id: 'ci-42',
        seen_at: '2026-09-17T10:00:00.000Z',
      },
    ]);
    // A test that failed in the run is not also recorded as passed.
    expect(
      store.outcomesAt({ project: 'shop', test_key: 'orders#fetch', revision: REV_A }).map((e) => e.outcome),
    ).toEqual(['failed']);
    expect(
      store.outcomesAt({ project: 'shop', test_key: 'cart#DE shipping', revision: REV_A })[0]?.outcome,
    ).toBe('passed');
    expect(recordFacts(store, doc, { run_id: 'ci-42', branch: 'master', change: 1001 })).toEqual({
      recorded: 0,
      skipped: 2,
    });
    store.close();
  });

  it('records a mainline report without a patchset, with the same masks triage uses', () => {
    const store = new SignatureStore(IN_MEMORY);
    const masks = [{ pattern: /expected \d+ to be \d+/g, replace: 'expected a total' }];

    recordFacts(store, facts(), {
      run_id: 'nightly-7',
      branch: 'master',
      change: null,
      masks,
      revision: REV_B,
    });

    const issue = facts().issues[0] as FactsDocument['issues'][0];
    const found = store.mainlineOccurrences({
      signature: failureSignature(issue, masks),
      project: 'shop',
      branch: 'master',
    });
    expect(found.latest[0]).toMatchObject({
      change: null,
      patchset: null,
      revision: REV_B,
      run_id: 'nightly-7',
    });
    expect(
      store.mainlineOccurrences({ signature: failureSignature(issue), project: 'shop', branch: 'master' })
        .total,
    ).toBe(0);
    store.close();
  });

  it('says which field is missing when neither the caller nor the facts name it', () => {
    const store = new SignatureStore(IN_MEMORY);

    expect(() =>
      recordFacts(store, facts({ repository: null }), { run_id: 'x', branch: 'master', change: null }),
    ).toThrow(/http:\/\/ci\/report\/42\/: no project given/);
    expect(() =>
      recordFacts(store, facts({ revision_sha: null }), { run_id: 'x', branch: 'master', change: null }),
    ).toThrow(/no revision given/);
    store.close();
  });
});
