import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, DEFAULT_BROWSER } from '../../scraper/browser/index.ts';

/** A POST the page's form made, as the server received it. */
export interface Posted {
  path: string;
  contentType: string;
  body: string;
}

/**
 * Serves rendered pages on loopback as the service would (`GET /runs/:id`) and records what the
 * QA form posts, so a test can follow links and submit the form in a browser without JavaScript.
 */
export class PageServer {
  readonly pages = new Map<string, string>();
  readonly posted: Posted[] = [];

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<PageServer> {
    let self: PageServer | undefined;
    const server = createServer((req, res) => {
      void (async () => {
        const path = req.url ?? '/';
        if (req.method === 'POST') {
          self?.posted.push({
            path,
            contentType: req.headers['content-type'] ?? '',
            body: await readBody(req),
          });
          res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
          return;
        }
        const page = self?.pages.get(path);
        if (page === undefined) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      })();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    self = new PageServer(server, `http://127.0.0.1:${port}`);
    return self;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface OpenedPage {
  page: Page;
  /** Every request the page made, allowed or not. */
  requests: string[];
  /** Dialogs (alert, confirm) the page opened: any is a script that ran. */
  dialogs: string[];
  close(): Promise<void>;
}

/** Debian's Chromium as the scraper launches it, for looking at the report page like a reader. */
export class PageBrowser {
  private constructor(private readonly browser: Browser) {}

  static async launch(): Promise<PageBrowser> {
    const browser = await chromium.launch({
      executablePath: DEFAULT_BROWSER.executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    return new PageBrowser(browser);
  }

  /**
   * A fresh context: JavaScript off as a careful reader may have it (the page must not need it),
   * or on to prove that nothing hostile in the page runs. Requests outside `origin` are aborted.
   */
  async open(options: { javaScript: boolean; origin: string; width?: number }): Promise<OpenedPage> {
    const context = await this.browser.newContext({
      javaScriptEnabled: options.javaScript,
      viewport: { width: options.width ?? 1280, height: 900 },
    });
    const requests: string[] = [];
    const dialogs: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url.startsWith(options.origin) ? route.continue() : route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    return { page, requests, dialogs, close: () => context.close() };
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
