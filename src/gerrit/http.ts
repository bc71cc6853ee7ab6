import { DiagnosisError, type ErrorCode } from '../errors/index.ts';

/** The subset of `fetch` the transport uses; tests pass a strict stub. */
export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;
/** Waits `ms` milliseconds; tests pass one that records the delays and returns at once. */
export type SleepFn = (ms: number) => Promise<void>;

export interface TransportOptions {
  fetch?: FetchFn;
  sleep?: SleepFn;
  /** Per attempt, including reading the body. */
  timeoutMs?: number;
  /** Retries after the first attempt (5xx, 429, connection errors and timeouts only). */
  retries?: number;
  /** First backoff delay; doubles per retry, with jitter, up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Upper bound on a server's Retry-After wait. */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export interface GerritHttpOptions extends TransportOptions {
  /** Gerrit's web URL, e.g. https://review.example.com/ (a context path such as /r/ is kept). */
  baseUrl: string;
  username: string;
  password: string;
}

/** Per-call overrides of the transport settings. */
export interface CallOptions {
  /** e.g. 0 for a post whose caller checks, between attempts, whether it already landed. */
  retries?: number;
}

export interface GerritResponse {
  status: number;
  text: string;
}

/** A failed Gerrit call: names the endpoint (method + path, never credentials) and the HTTP status. */
export class GerritError extends DiagnosisError {
  /** e.g. `GET /a/changes/p~1/revisions/current/files/` */
  readonly endpoint: string;
  /** HTTP status, or undefined when no response came back (connection error, timeout). */
  readonly status: number | undefined;

  constructor(
    code: ErrorCode,
    endpoint: string,
    status: number | undefined,
    detail: string,
    cause?: unknown,
  ) {
    super(code, `Gerrit ${endpoint}: ${detail}`, { input: endpoint, cause });
    this.name = 'GerritError';
    this.endpoint = endpoint;
    this.status = status;
  }
}

const DEFAULTS = {
  timeoutMs: 30_000,
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** Longest piece of an error body quoted in a message. */
const BODY_QUOTE_CHARS = 300;

/**
 * Gerrit prefixes every JSON response with `)]}'` and a newline against XSSI
 * (https://gerrit-review.googlesource.com/Documentation/rest-api.html#output). The one place
 * that strips it.
 */
export function parseGerritJson(text: string, endpoint = 'Gerrit response'): unknown {
  const body = text.replace(/^\)\]\}'\r?\n?/, '');
  try {
    return JSON.parse(body);
  } catch (err: unknown) {
    throw new GerritError('GERRIT_ERROR', endpoint, undefined, 'response is not JSON', err);
  }
}

/**
 * File content and patches come back as base64 text without the JSON prefix
 * (rest-api-changes "Get Content"). The one place that decodes them.
 */
export function decodeBase64Body(text: string, endpoint = 'Gerrit response'): string {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new GerritError('GERRIT_ERROR', endpoint, undefined, 'response is not base64');
  }
  return Buffer.from(compact, 'base64').toString('utf8');
}

function codeFor(status: number): ErrorCode {
  if (status === 401 || status === 403) return 'GERRIT_AUTH';
  if (status === 404) return 'GERRIT_NOT_FOUND';
  return 'GERRIT_ERROR';
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Authenticated REST transport: every path is requested under `/a/` with HTTP basic auth
 * (which needs no XSRF token), with a timeout per attempt and bounded retries with exponential
 * backoff and jitter on 5xx, 429 (honouring Retry-After) and connection errors — never on other
 * 4xx, which would fail again.
 *
 * Retries also apply to POST: a review post that timed out may have landed, so posting code
 * must stay idempotent on its own (look for its marker before posting).
 */
export class GerritHttp {
  private readonly root: string;
  private readonly authorization: string;
  private readonly fetchFn: FetchFn;
  private readonly sleepFn: SleepFn;
  private readonly random: () => number;
  private readonly settings: typeof DEFAULTS;

  constructor(options: GerritHttpOptions) {
    this.root = `${options.baseUrl.replace(/\/+$/, '')}/a/`;
    this.authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
    this.fetchFn = options.fetch ?? ((url, init) => fetch(url, init));
    this.sleepFn = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.settings = {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      retries: Math.max(0, options.retries ?? DEFAULTS.retries),
      baseDelayMs: options.baseDelayMs ?? DEFAULTS.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? DEFAULTS.maxDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs,
    };
  }

  /** `METHOD /a/path` as error messages name it (the query is left out: it may be long). */
  endpoint(method: string, path: string): string {
    return `${method} /a/${path.split('?')[0]}`;
  }

  /** Any 2xx answer as text; otherwise a `GerritError`. `path` is relative to `/a/` and already encoded. */
  async request(
    method: string,
    path: string,
    body?: unknown,
    accept = 'application/json',
    call: CallOptions = {},
  ): Promise<GerritResponse> {
    const endpoint = this.endpoint(method, path);
    const headers: Record<string, string> = { authorization: this.authorization, accept };
    if (body !== undefined) headers['content-type'] = 'application/json; charset=UTF-8';
    const payload = body === undefined ? undefined : JSON.stringify(body);

    const retries = Math.max(0, call.retries ?? this.settings.retries);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      let status: number;
      let text: string;
      let retryAfter: string | null = null;
      try {
        const signal = AbortSignal.timeout(this.settings.timeoutMs);
        const res = await this.fetchFn(this.root + path, { method, headers, body: payload, signal });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        text = await res.text();
      } catch (err: unknown) {
        if (last) {
          const why = isTimeout(err) ? `timed out after ${this.settings.timeoutMs} ms` : 'connection failed';
          throw new GerritError('GERRIT_ERROR', endpoint, undefined, `${why} (${attempt + 1} attempts)`, err);
        }
        await this.sleepFn(this.backoff(attempt));
        continue;
      }
      if (status >= 200 && status < 300) return { status, text };
      if (!retryable(status) || last) {
        const quoted = text.trim().slice(0, BODY_QUOTE_CHARS);
        const detail = `HTTP ${status}${quoted === '' ? '' : `: ${quoted}`}`;
        throw new GerritError(codeFor(status), endpoint, status, detail);
      }
      const hinted = status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined;
      await this.sleepFn(
        hinted === undefined ? this.backoff(attempt) : Math.min(hinted, this.settings.maxRetryAfterMs),
      );
    }
  }

  /** Parsed JSON of a 2xx answer (prefix stripped); an empty body (204) is `undefined`. */
  async json(method: string, path: string, body?: unknown, call: CallOptions = {}): Promise<unknown> {
    const { text } = await this.request(method, path, body, 'application/json', call);
    if (text.trim() === '') return undefined;
    return parseGerritJson(text, this.endpoint(method, path));
  }

  /** Decoded text of a base64 answer (file content, patch). */
  async base64(path: string): Promise<string> {
    // With `Accept: application/json` Gerrit wraps the base64 in a JSON string; ask for text.
    const { text } = await this.request('GET', path, undefined, 'text/plain');
    return decodeBase64Body(text, this.endpoint('GET', path));
  }

  /** Exponential with jitter: half fixed, half random, so retries from many clients spread out. */
  private backoff(attempt: number): number {
    const full = Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** attempt);
    return Math.round(full / 2 + (this.random() * full) / 2);
  }
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}
