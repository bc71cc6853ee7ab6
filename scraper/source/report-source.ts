import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DiagnosisError, describeError } from '../../src/errors/index.ts';
import { createHttpGet, type HttpGet } from './http-get.ts';

export interface Fetched {
  body: Buffer;
  contentType: string | null;
}

/**
 * Where a report lives: served over HTTP(S) or a folder/file on disk. Data-mode adapters read
 * files relative to the report root through this, so the same code serves both.
 */
export interface ReportSource {
  /** The report root as a URL (http(s) or file), always ending in '/' for folders. */
  readonly rootUrl: string;
  /** The URL a user opens (index.html for folders). */
  readonly displayUrl: string;
  readonly isHttp: boolean;
  get(relative: string): Promise<Fetched>;
  /** Like get, but null when the file is absent (404 / ENOENT). */
  tryGet(relative: string): Promise<Fetched | null>;
}

export interface HttpOptions {
  timeoutMs: number;
  retries: number;
  /** The HTTP client; tests may pass a stub. */
  get?: HttpGet;
}

const DEFAULT_HTTP: HttpOptions = { timeoutMs: 15_000, retries: 1 };

export async function openReportSource(
  input: string,
  http: Partial<HttpOptions> = {},
): Promise<ReportSource> {
  const options = { ...DEFAULT_HTTP, ...http };
  if (/^https?:\/\//i.test(input)) return httpSource(input, options);
  const path = input.startsWith('file:') ? fileURLToPath(input) : resolve(input);
  const info = await stat(path).catch((err: unknown) => {
    throw new DiagnosisError('INPUT_NOT_FOUND', `report "${input}" does not exist (${describeError(err)})`, {
      input,
      cause: err,
    });
  });
  return info.isDirectory() ? dirSource(path) : fileSource(path);
}

function httpSource(input: string, http: HttpOptions): ReportSource {
  const options = { ...http, get: http.get ?? createHttpGet() };
  const url = new URL(input);
  url.hash = '';
  const isFile = /\.(xml|html?|json)$/i.test(url.pathname) && !url.pathname.endsWith('/index.html');
  const root = new URL(isFile ? '.' : url.pathname.endsWith('/') ? url.href : `${url.href}/`, url);
  if (url.pathname.endsWith('/index.html')) root.pathname = root.pathname.replace(/index\.html$/, '');
  const get = async (relative: string): Promise<Fetched> => {
    const fetched = await fetchWithRetry(new URL(relative, root).href, options);
    if (fetched === null) {
      throw new DiagnosisError('HTTP_ERROR', `${new URL(relative, root).href} answered 404 Not Found`, {
        input,
      });
    }
    return fetched;
  };
  return {
    rootUrl: root.href,
    displayUrl: isFile ? url.href : new URL('index.html', root).href,
    isHttp: true,
    get,
    tryGet: (relative) => fetchWithRetry(new URL(relative, root).href, options),
  };
}

/** null on 404; retries once on connection errors and 5xx, since CI report servers hiccup. */
async function fetchWithRetry(url: string, options: HttpOptions & { get: HttpGet }): Promise<Fetched | null> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    try {
      const res = await options.get(url, options.timeoutMs);
      if (res.status === 404) return null;
      if (res.status >= 500 && attempt < options.retries) {
        lastError = new Error(`HTTP ${res.status}`);
        continue;
      }
      if (res.status < 200 || res.status >= 300) {
        throw new DiagnosisError('HTTP_ERROR', `${url} answered HTTP ${res.status}`, { input: url });
      }
      return { body: res.body, contentType: res.contentType };
    } catch (err: unknown) {
      if (err instanceof DiagnosisError) throw err;
      lastError = err;
    }
  }
  const timedOut = lastError instanceof Error && lastError.name === 'TimeoutError';
  throw new DiagnosisError(
    timedOut ? 'PAGE_TIMEOUT' : 'HTTP_ERROR',
    `${url} could not be fetched: ${describeError(lastError)}`,
    { input: url, cause: lastError },
  );
}

function dirSource(dir: string): ReportSource {
  const read = async (relative: string): Promise<Fetched | null> => {
    const path = isAbsolute(relative) ? relative : join(dir, relative);
    try {
      return { body: await readFile(path), contentType: null };
    } catch (err: unknown) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new DiagnosisError('INPUT_NOT_FOUND', `${path} could not be read: ${describeError(err)}`, {
        input: path,
        cause: err,
      });
    }
  };
  return {
    rootUrl: pathToFileURL(`${dir}/`).href,
    displayUrl: pathToFileURL(join(dir, 'index.html')).href,
    isHttp: false,
    get: async (relative) => {
      const got = await read(relative);
      if (got === null) {
        throw new DiagnosisError('INPUT_NOT_FOUND', `${join(dir, relative)} does not exist`, { input: dir });
      }
      return got;
    },
    tryGet: read,
  };
}

/** A single file (a JUnit XML): only the file itself (relative '') exists in it. */
function fileSource(path: string): ReportSource {
  const read = async (relative: string): Promise<Fetched | null> =>
    relative === '' ? { body: await readFile(path), contentType: null } : null;
  return {
    rootUrl: pathToFileURL(path).href,
    displayUrl: pathToFileURL(path).href,
    isHttp: false,
    get: async (relative) => {
      const got = await read(relative);
      if (got === null) {
        throw new DiagnosisError('INPUT_NOT_FOUND', `${path} is a single file: it holds no "${relative}"`, {
          input: path,
        });
      }
      return got;
    },
    tryGet: read,
  };
}
