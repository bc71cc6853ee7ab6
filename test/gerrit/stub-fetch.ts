import type { FetchFn } from '../../src/gerrit/index.ts';

/** Gerrit's JSON answer: the `)]}'` XSSI line, then the JSON (mirrors `parseGerritJson`). */
export function gerritJson(value: unknown): string {
  return `)]}'\n${JSON.stringify(value)}`;
}

export interface StubReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Throw instead of answering (a connection error). */
  error?: Error;
}

export interface StubCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * A strict fetch stub: each expected call (`METHOD url-after-base`) is answered in order by its
 * replies; `verify()` fails on an unexpected call (or one more than scripted) and on unused replies.
 */
export function stubFetch(
  base: string,
  script: Record<string, StubReply[]>,
): { fetch: FetchFn; calls: StubCall[]; verify: () => void } {
  const calls: StubCall[] = [];
  const unexpected: string[] = [];
  const remaining = new Map(Object.entries(script).map(([k, v]) => [k, [...v]]));
  const fetch: FetchFn = async (url, init) => {
    const method = init.method ?? 'GET';
    const key = `${method} ${url.startsWith(base) ? url.slice(base.length) : url}`;
    calls.push({
      method,
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const reply = remaining.get(key)?.shift();
    if (reply === undefined) {
      // Recorded as well as thrown: the transport would read a throw as a connection error.
      unexpected.push(key);
      throw new Error(`stub fetch: unexpected call ${key}`);
    }
    if (reply.error !== undefined) throw reply.error;
    return new Response(reply.body ?? '', { status: reply.status ?? 200, headers: reply.headers });
  };
  /** Fails on any unexpected call and on scripted replies never used. */
  const verify = () => {
    if (unexpected.length > 0) throw new Error(`stub fetch: unexpected calls ${unexpected.join(', ')}`);
    const left = [...remaining].filter(([, v]) => v.length > 0).map(([k]) => k);
    if (left.length > 0) throw new Error(`stub fetch: calls never made ${left.join(', ')}`);
  };
  return { fetch, calls, verify };
}
