import { describe, expect, it } from 'vitest';
import { isDiagnosisError } from '../../src/errors/index.ts';
import {
  decodeBase64Body,
  GerritClient,
  GerritError,
  GerritHttp,
  parseGerritJson,
  parseRetryAfter,
} from '../../src/gerrit/index.ts';
import { gerritJson, type StubReply, stubFetch } from './stub-fetch.ts';

const BASE = 'https://review.example.com/r/a/';
const PASSWORD = 'pa55-w0rd-secret';

function setup(script: Record<string, StubReply[]>, retries = 3) {
  const stub = stubFetch(BASE, script);
  const sleeps: number[] = [];
  const http = new GerritHttp({
    baseUrl: 'https://review.example.com/r/',
    username: 'bot',
    password: PASSWORD,
    fetch: stub.fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    retries,
    baseDelayMs: 100,
    maxDelayMs: 1000,
  });
  return { ...stub, http, sleeps };
}

async function caught(promise: Promise<unknown>): Promise<GerritError> {
  try {
    await promise;
  } catch (err: unknown) {
    if (err instanceof GerritError) return err;
    throw err;
  }
  throw new Error('expected a GerritError');
}

describe('parseGerritJson', () => {
  it.each([
    [')]}\'\n{"a":1}', { a: 1 }],
    [")]}'\r\n[1,2]", [1, 2]],
    ['{"a":1}', { a: 1 }],
  ])('strips the XSSI prefix of %j', (text, expected) => {
    expect(parseGerritJson(text)).toEqual(expected);
  });

  it('throws GERRIT_ERROR naming the endpoint on non-JSON', () => {
    expect(() => parseGerritJson(")]}'\n<html>", 'GET /a/x')).toThrow(/GET \/a\/x: response is not JSON/);
  });
});

describe('decodeBase64Body', () => {
  it('decodes UTF-8 text, ignoring line breaks', () => {
    const encoded = Buffer.from('héllo\nwörld\n', 'utf8').toString('base64');

    expect(decodeBase64Body(`${encoded.slice(0, 8)}\n${encoded.slice(8)}\n`)).toBe('héllo\nwörld\n');
  });

  it('decodes an empty body to an empty string', () => {
    expect(decodeBase64Body('')).toBe('');
  });

  it('refuses text that is not base64', () => {
    expect(() => decodeBase64Body(")]}'\n{}", 'GET /a/f')).toThrow(/GET \/a\/f: response is not base64/);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3000],
    ['0', 0],
    [null, undefined],
    ['soon', undefined],
  ])('%j → %j ms', (value, expected) => {
    expect(parseRetryAfter(value)).toBe(expected);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');

    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
  });
});

describe('GerritHttp', () => {
  it('sends basic auth under /a/ and parses JSON', async () => {
    const s = setup({ 'GET changes/p~1': [{ body: gerritJson({ ok: true }) }] });

    const value = await s.http.json('GET', 'changes/p~1');

    expect(value).toEqual({ ok: true });
    expect(s.calls[0]?.url).toBe('https://review.example.com/r/a/changes/p~1');
    expect(s.calls[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`bot:${PASSWORD}`).toString('base64')}`,
    );
    s.verify();
  });

  it('retries 503 with exponential backoff, then succeeds', async () => {
    const s = setup({
      'GET x': [{ status: 503 }, { status: 502 }, { status: 200, body: gerritJson(1) }],
    });

    const value = await s.http.json('GET', 'x');

    expect(value).toBe(1);
    // random 0.5 → three quarters of 100·2^n
    expect(s.sleeps).toEqual([75, 150]);
    s.verify();
  });

  it('honours Retry-After on 429', async () => {
    const s = setup({
      'GET x': [{ status: 429, headers: { 'retry-after': '7' } }, { body: gerritJson('ok') }],
    });

    const value = await s.http.json('GET', 'x');

    expect(value).toBe('ok');
    expect(s.sleeps).toEqual([7000]);
    s.verify();
  });

  it('retries connection errors a bounded number of times, then names the endpoint', async () => {
    const refused = new TypeError('fetch failed');
    const s = setup({ 'POST y': [{ error: refused }, { error: refused }, { error: refused }] }, 2);

    const err = await caught(s.http.json('POST', 'y', { a: 1 }));

    expect(err.code).toBe('GERRIT_ERROR');
    expect(err.status).toBeUndefined();
    expect(err.message).toBe('Gerrit POST /a/y: connection failed (3 attempts)');
    expect(err.cause).toBe(refused);
    expect(s.sleeps).toHaveLength(2);
    expect(s.calls[0]?.body).toBe('{"a":1}');
    s.verify();
  });

  it('gives up after the last retry of a 5xx with its status', async () => {
    const s = setup(
      {
        'GET z': [
          { status: 500, body: 'boom' },
          { status: 500, body: 'boom' },
        ],
      },
      1,
    );

    const err = await caught(s.http.json('GET', 'z'));

    expect(err).toMatchObject({ code: 'GERRIT_ERROR', status: 500, endpoint: 'GET /a/z' });
    expect(err.message).toBe('Gerrit GET /a/z: HTTP 500: boom');
    s.verify();
  });

  it('reports a timeout per attempt', async () => {
    const stub = stubFetch(BASE, {});
    const http = new GerritHttp({
      baseUrl: 'https://review.example.com/r',
      username: 'bot',
      password: PASSWORD,
      timeoutMs: 20,
      retries: 0,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    });

    const err = await caught(http.json('GET', 'slow'));

    expect(err.message).toBe('Gerrit GET /a/slow: timed out after 20 ms (1 attempts)');
    stub.verify();
  });
});

describe('GerritClient errors', () => {
  function client(script: Record<string, StubReply[]>) {
    const s = setup(script);
    const gerrit = new GerritClient({
      baseUrl: 'https://review.example.com/r/',
      username: 'bot',
      password: PASSWORD,
      fetch: s.fetch,
      sleep: async (ms) => {
        s.sleeps.push(ms);
      },
    });
    return { ...s, gerrit };
  }

  it('does not retry 404 and throws GERRIT_NOT_FOUND naming the endpoint', async () => {
    const s = client({
      'GET changes/my%2Fproject~9/messages': [{ status: 404, body: 'Not found: my/project~9' }],
    });

    const err = await caught(s.gerrit.listMessages('my/project~9'));

    expect(err).toMatchObject({
      code: 'GERRIT_NOT_FOUND',
      status: 404,
      endpoint: 'GET /a/changes/my%2Fproject~9/messages',
    });
    expect(err.message).toBe(
      'Gerrit GET /a/changes/my%2Fproject~9/messages: HTTP 404: Not found: my/project~9',
    );
    expect(isDiagnosisError(err)).toBe(true);
    expect(s.sleeps).toEqual([]);
    s.verify();
  });

  it.each([401, 403])('maps %i to GERRIT_AUTH without retrying or leaking the password', async (status) => {
    const s = client({ 'GET changes/p~1/messages': [{ status, body: 'Unauthorized' }] });

    const err = await caught(s.gerrit.listMessages('p~1'));

    expect(err.code).toBe('GERRIT_AUTH');
    expect(err.status).toBe(status);
    expect(`${err.message} ${err.input} ${err.endpoint} ${String(err.stack)}`).not.toContain(PASSWORD);
    expect(`${err.message}`).not.toContain(Buffer.from(`bot:${PASSWORD}`).toString('base64'));
    s.verify();
  });

  it('rejects a response that does not fit the schema, naming the endpoint', async () => {
    const s = client({ 'GET changes/p~1/messages': [{ body: gerritJson([{ id: 1 }]) }] });

    const err = await caught(s.gerrit.listMessages('p~1'));

    expect(err.code).toBe('GERRIT_ERROR');
    expect(err.message).toMatch(/^Gerrit GET \/a\/changes\/p~1\/messages: unexpected response at 0\.id/);
    s.verify();
  });
});
