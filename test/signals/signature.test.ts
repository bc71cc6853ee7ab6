import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../src/errors/index.ts';
import {
  DEFAULT_SIGNALS_CONFIG,
  exceptionType,
  failureSignature,
  loadSignalsConfig,
  masksFor,
  normaliseReason,
  parseSignalsConfig,
  SIGNATURE_LENGTH,
} from '../../src/signals/index.ts';
import { issueWith } from './helpers.ts';

const TRACES = 'test/fixtures/traces';

describe('normaliseReason', () => {
  it.each([
    [
      'numbers, with units kept',
      'expected 2690 to be 2290 (took 523ms)',
      'expected <n> to be <n> (took <n>ms)',
    ],
    [
      'decimals',
      'VAT for DE ==> expected: <2.35> but was: <2.34>',
      'VAT for DE ==> expected: <<n>> but was: <<n>>',
    ],
    ['UUIDs', 'order 3f2504e0-4f89-11d3-9a0c-0305e82c3301 not found', 'order <uuid> not found'],
    ['ISO timestamps', 'expired at 2026-09-17T10:00:00.123Z', 'expired at <ts>'],
    ['logger timestamps', '2024-05-14 09:12:03,512 ERROR pool closed', '<ts> ERROR pool closed'],
    [
      "Java's Date.toString()",
      'token expired Tue Sep 17 10:00:00 UTC 2026',
      'token expired <date> <time> UTC <n>',
    ],
    ['bare dates and times', 'no rate for 2026-09-17 at 10:00:01', 'no rate for <date> at <time>'],
    [
      'memory addresses',
      '<models.Order object at 0x7f3a2b1c4d90> is not JSON serializable',
      '<models.Order object at <addr>> is not JSON serializable',
    ],
    ["Java's identity hash", 'unexpected com.example.Order@1b6d3586', 'unexpected com.example.Order@<hash>'],
    [
      'commit shas and object ids',
      'commit a1b2c3d4e5f60718293a4b5c6d7e8f9012345678 missing',
      'commit <hex> missing',
    ],
    ['IPs and ports', 'connect ECONNREFUSED 127.0.0.1:54321', 'connect ECONNREFUSED <ip>:<n>'],
    ['ports in URLs', 'GET http://localhost:43567/orders failed', 'GET http://localhost:<n>/orders failed'],
    ['base64 tokens', 'token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 rejected', 'token <b64> rejected'],
    ['padded base64', 'body was dGhpcyBpcyBhIHRlc3Qgb2YgcGFkZGluZw==', 'body was <b64>'],
    [
      'pytest tmp_path',
      "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/pytest-of-runner/pytest-12/test_import0/stock.csv'",
      "FileNotFoundError: [Errno <n>] No such file or directory: '<tmp>'",
    ],
    [
      'pytest --basetemp elsewhere',
      'cannot write /home/ci/build/pytest-of-ci/pytest-3/test_export1/out.csv',
      'cannot write <tmp>',
    ],
    [
      'Windows temp folders',
      "PermissionError: [WinError 5] Access is denied: 'C:\\Users\\bob\\AppData\\Local\\Temp\\tmpa1b2\\lock'",
      "PermissionError: [WinError <n>] Access is denied: '<tmp>'",
    ],
    [
      'macOS temp folders',
      'open /var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/junit123/a.txt',
      'open <tmp>',
    ],
    ['CI runner temp', "ENOENT: open '/home/runner/work/_temp/7c1e/out.json'", "ENOENT: open '<tmp>'"],
    [
      'Go test temp dirs',
      'open /tmp/TestExport1234567/001/ledger.csv: no such file',
      'open <tmp>: no such file',
    ],
    ['whitespace', '  expected\t\tok\n\n  but   was  ', 'expected ok but was'],
  ])('masks %s', (_what, input, expected) => {
    expect(normaliseReason(input)).toBe(expected);
  });

  it.each([
    ['identifiers with digits', 'utf8 sha256 v2 x86_64 file2.txt v1.2.3 Base64Encoder'],
    [
      'camelCase and paths',
      'AbstractSingletonProxyFactoryBean at src/main/java/com/example/billing/Billing2Service.java',
    ],
    ['words that look like temp', 'attempt/retry temperature contemporary tmpfile'],
    ['hex-letter words', 'deadbeef acceded effaced'],
  ])('keeps %s', (_what, input) => {
    expect(normaliseReason(input)).toBe(input);
  });

  it('makes a regenerated Go panic (goroutine number, pointers) read the same', () => {
    const first = readFileSync(join(TRACES, 'go-panic.txt'), 'utf8');
    const regenerated = first
      .replace('goroutine 20 [running]', 'goroutine 7 [running]')
      .replaceAll('0x3795895d4488', '0xc000104820')
      .replace('pc=0x52ede0', 'pc=0x4a1f20');

    expect(regenerated).not.toBe(first);
    expect(normaliseReason(regenerated)).toBe(normaliseReason(first));
  });

  it("makes the Chromium trace read the same on another page server's port", () => {
    const first = readFileSync(join(TRACES, 'browser-chromium.txt'), 'utf8');
    const otherPort = first.replaceAll('127.0.0.1:38051', '127.0.0.1:41999');

    expect(normaliseReason(otherPort)).toBe(normaliseReason(first));
    expect(normaliseReason(first)).toContain('http://<ip>:<n>/js/cart-view.js:<n>:<n>');
  });

  it('runs project masks before the built-in ones', () => {
    const masks = [{ pattern: /\bORD-[A-Z0-9]+\b/g, replace: 'ORD-<id>' }];

    expect(normaliseReason('order ORD-1001 not booked', masks)).toBe('order ORD-<id> not booked');
    expect(normaliseReason('order ORD-1001 not booked')).toBe('order ORD-<n> not booked');
  });
});

describe('exceptionType', () => {
  it.each([
    ['java.lang.IllegalStateException: Cannot convert invoice', 'java.lang.IllegalStateException'],
    ['org.opentest4j.AssertionFailedError: VAT for DE', 'org.opentest4j.AssertionFailedError'],
    ["ValueError: unknown unit of measure: 'dozen'", 'ValueError'],
    ['E   ModuleNotFoundError: No module named x', 'ModuleNotFoundError'],
    ['AssertionError [ERR_ASSERTION]: ledger total', 'AssertionError'],
    ['panic: runtime error: invalid memory address', 'panic'],
    ["expected 'declined' to be 'captured'", null],
    ['Test timed out in 500ms.', null],
  ])('%s → %s', (line, expected) => {
    expect(exceptionType(line)).toBe(expected);
  });
});

describe('failureSignature', () => {
  const failing = (message: string, key = 'checkout#posts the order total') =>
    issueWith({ message: `AssertionError [ERR_ASSERTION]: ${message}`, key });

  it('is a short hex digest', () => {
    expect(failureSignature(failing('total 6187 !== 6074'))).toMatch(
      new RegExp(`^[0-9a-f]{${SIGNATURE_LENGTH}}$`),
    );
  });

  it('is the same for the same failure with other values', () => {
    expect(failureSignature(failing('ledger total for order 1001 is 6187'))).toBe(
      failureSignature(failing('ledger total for order 2002 is 5120')),
    );
  });

  it('differs by test, by exception type and by wording', () => {
    const base = failureSignature(failing('ledger total does not match'));

    expect(failureSignature(failing('ledger total does not match', 'checkout#other test'))).not.toBe(base);
    expect(
      failureSignature(
        issueWith({
          message: 'TypeError: ledger total does not match',
          key: 'checkout#posts the order total',
        }),
      ),
    ).not.toBe(base);
    expect(failureSignature(failing('ledger entry is missing'))).not.toBe(base);
  });

  it('falls back to the trace head, then the status, when the report shows no message', () => {
    const fromTrace = issueWith({ trace: 'Error: STACK_TRACE_ERROR\n    at run (runner.js:1:1)' });
    const fromStatus = issueWith({});

    expect(failureSignature(fromTrace)).not.toBe(failureSignature(fromStatus));
    expect(failureSignature(fromTrace)).toBe(
      failureSignature(
        issueWith({ trace: 'Error: STACK_TRACE_ERROR\n    at run (runner.js:9:9)\n    at x (y.js:2:2)' }),
      ),
    );
  });

  it('uses project masks', () => {
    const masks = [{ pattern: /\bcustomer C-\d+/g, replace: 'customer <id>' }];
    const a = issueWith({ message: 'IllegalStateException: no rate for customer C-42 in CHF' });
    const b = issueWith({ message: 'IllegalStateException: no rate for customer C-77 in CHF' });

    expect(failureSignature(a, masks)).toBe(failureSignature(b, masks));
  });
});

describe('signals config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signals-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the shipped config/signals.json, project masks first', async () => {
    const config = await loadSignalsConfig(DEFAULT_SIGNALS_CONFIG);
    const masks = masksFor(config, 'order-service');

    expect(masks.length).toBe(config.masks.length + 1);
    expect(normaliseReason('ORD-7Q2 for ann@example.com', masks)).toBe('ORD-<id> for <email>');
    expect(masksFor(config, 'unknown-project')).toBe(config.masks);
  });

  it('names the file and the entry whose regex is invalid', async () => {
    const path = join(dir, 'bad-regex.json');
    writeFileSync(
      path,
      JSON.stringify({
        projects: {
          shop: {
            masks: [
              { pattern: 'ok', replace: 'x' },
              { pattern: '(unclosed', replace: 'x' },
            ],
          },
        },
      }),
    );

    const err = await loadSignalsConfig(path).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(DiagnosisError);
    expect((err as DiagnosisError).code).toBe('INVALID_ARGUMENT');
    expect((err as DiagnosisError).message).toContain(path);
    expect((err as DiagnosisError).message).toContain('projects."shop".masks[1]');
    expect((err as DiagnosisError).message).toContain('(unclosed');
  });

  it('names the field zod rejects', async () => {
    const path = join(dir, 'bad-shape.json');
    writeFileSync(path, JSON.stringify({ masks: [{ pattern: 'a', replace: 'b', flags: 'gx' }] }));

    const err = (await loadSignalsConfig(path).catch((e: unknown) => e)) as DiagnosisError;

    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain(path);
    expect(err.message).toMatch(/masks\[0\]\.flags|masks\.0\.flags/);
  });

  it('rejects a pattern that matches the empty string, and unknown keys', () => {
    expect(() => parseSignalsConfig({ masks: [{ pattern: '\\d*', replace: '<n>' }] }, 'x.json')).toThrow(
      /x\.json: masks\[0\].*matches the empty string/,
    );
    expect(() => parseSignalsConfig({ mask: [] }, 'x.json')).toThrow(/x\.json is invalid/);
  });

  it('says when the file cannot be read', async () => {
    await expect(loadSignalsConfig(join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json could not be read/,
    );
  });
});
