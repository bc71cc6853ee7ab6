import http from 'node:http';
import https from 'node:https';

export interface HttpResponse {
  status: number;
  body: Buffer;
  contentType: string | null;
}

/** GET one URL; rejects with an error named TimeoutError when the server is too slow. */
export type HttpGet = (url: string, timeoutMs: number) => Promise<HttpResponse>;

export class HttpTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * A keep-alive GET client, one per report source. Node's `http` with pooled sockets costs about
 * half of what `fetch` does per request, which matters when a report is a thousand small files.
 */
export function createHttpGet(maxSockets = 64): HttpGet {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  const get: HttpGet = async (url, timeoutMs) => {
    let current = url;
    // Report hosts redirect folders to their slash form or to a login-free mirror; follow a few.
    for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
      const res = await once(current, timeoutMs);
      if (res.status < 300 || res.status >= 400 || res.location === null) return res;
      current = new URL(res.location, current).href;
    }
    throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
  };
  const once = (url: string, timeoutMs: number): Promise<HttpResponse & { location: string | null }> =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const client = target.protocol === 'https:' ? https : http;
      const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
      const req = client.get(target, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            contentType: res.headers['content-type'] ?? null,
            location: res.headers.location ?? null,
          }),
        );
      });
      req.setTimeout(timeoutMs, () => req.destroy(new HttpTimeoutError(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
    });
  return get;
}

const MAX_REDIRECTS = 5;
