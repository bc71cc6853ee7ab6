import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, resolve, sep } from 'node:path';

export interface ServedDir {
  /** Base URL of the served folder, ending in '/'. */
  url: string;
  close: () => Promise<void>;
}

/**
 * Content-Types as a plain static host (nginx's mime.types) sends them. Only formats that are
 * UTF-8 by definition carry a charset: a `.txt` attachment may be GBK, and a wrong declared
 * charset would mislead the decoder more than none.
 */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.csv': 'text/csv',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.zip': 'application/zip',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
};

/**
 * Serves `dir` read-only on 127.0.0.1 at a free port, like a CI artifact host: files with
 * their Content-Type, index.html for folders, an autoindex-style listing for folders without
 * one (what nginx/Jenkins show), and 404 for anything missing or outside `dir`.
 */
export async function serveDir(dir: string): Promise<ServedDir> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'method not allowed');
      return;
    }
    respond(root, req.url ?? '/', res, req.method === 'HEAD').catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, String(err));
      else res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((ok, fail) => {
        server.closeAllConnections();
        server.close((err) => (err ? fail(err) : ok()));
      }),
  };
}

async function respond(root: string, rawUrl: string, res: ServerResponse, headOnly: boolean): Promise<void> {
  const pathname = new URL(rawUrl, 'http://localhost').pathname;
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch (err: unknown) {
    send(res, 400, `bad path: ${String(err)}`);
    return;
  }
  const path = resolve(join(root, decoded));
  if (path !== root && !path.startsWith(root + sep)) {
    send(res, 404, 'not found');
    return;
  }
  const info = await stat(path).catch((err: unknown) => {
    if (
      (err as NodeJS.ErrnoException).code === 'ENOENT' ||
      (err as NodeJS.ErrnoException).code === 'ENOTDIR'
    ) {
      return null;
    }
    throw err;
  });
  if (info === null) {
    send(res, 404, 'not found');
    return;
  }
  if (info.isDirectory()) {
    if (!pathname.endsWith('/')) {
      res.writeHead(301, { Location: `${pathname}/` }).end();
      return;
    }
    const index = join(path, 'index.html');
    const indexInfo = await stat(index).catch(() => null);
    if (indexInfo?.isFile()) {
      sendFile(res, index, indexInfo.size, headOnly);
      return;
    }
    const names = (await readdir(path, { withFileTypes: true }))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    const title = `Index of /${relative(root, path).split(sep).join('/')}`;
    const links = names.map((name) => `<a href="${encodeURI(name)}">${escapeHtml(name)}</a>`).join('\n');
    const body = `<!DOCTYPE html>\n<html><head><title>${title}</title></head><body><h1>${title}</h1><pre>\n${links}\n</pre></body></html>\n`;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(headOnly ? undefined : body);
    return;
  }
  sendFile(res, path, info.size, headOnly);
}

function sendFile(res: ServerResponse, path: string, size: number, headOnly: boolean): void {
  const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': size });
  if (headOnly) {
    res.end();
    return;
  }
  createReadStream(path)
    .on('error', (err) => res.destroy(err))
    .pipe(res);
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
