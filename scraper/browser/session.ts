import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { DiagnosisError, describeError } from '../../src/errors/index.ts';

/** Flags that keep Debian's Chromium off the (closed) network and quiet as root in CI. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserOptions {
  executablePath: string;
  /** Per navigation / wait, in ms. */
  timeoutMs: number;
}

export const DEFAULT_BROWSER: BrowserOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  timeoutMs: 20_000,
};

/**
 * One browser reused for a whole scrape; pages are opened per failure and always closed.
 * Requests to any origin but the report's are aborted: report UIs try to load analytics from
 * the internet, which stalls `networkidle` on a closed network (shared/notes/allure.md).
 */
export class BrowserSession {
  private constructor(
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    readonly options: BrowserOptions,
  ) {}

  static async open(allowedOrigin: string, options: Partial<BrowserOptions> = {}): Promise<BrowserSession> {
    const opts = { ...DEFAULT_BROWSER, ...options };
    if (!existsSync(opts.executablePath)) {
      throw new DiagnosisError(
        'BROWSER_UNAVAILABLE',
        `Chromium not found at ${opts.executablePath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`,
        { input: opts.executablePath },
      );
    }
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: opts.executablePath,
        headless: true,
        args: CHROMIUM_ARGS,
      });
    } catch (err: unknown) {
      throw new DiagnosisError('BROWSER_UNAVAILABLE', `Chromium failed to start: ${describeError(err)}`, {
        input: opts.executablePath,
        cause: err,
      });
    }
    const context = await browser.newContext();
    context.setDefaultTimeout(opts.timeoutMs);
    context.setDefaultNavigationTimeout(opts.timeoutMs);
    // esbuild (tsx) may reference a `__name` helper inside functions passed to evaluate.
    await context.addInitScript('window.__name = (f) => f');
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(allowedOrigin) || url.startsWith('data:') || url.startsWith('blob:')) {
        return route.continue();
      }
      return route.abort('blockedbyclient');
    });
    return new BrowserSession(browser, context, opts);
  }

  /** Runs `work` on a fresh page and closes the page whatever happens. */
  async withPage<T>(work: (page: Page) => Promise<T>): Promise<T> {
    const page = await this.context.newPage();
    try {
      return await work(page);
    } finally {
      await page.close();
    }
  }

  /** A page the caller owns and must close (page pools reuse pages across failures). */
  newPage(): Promise<Page> {
    return this.context.newPage();
  }

  async close(): Promise<void> {
    await this.context.close();
    await this.browser.close();
  }
}

/** The origin prefix that pages of this report may load from. */
export function originOf(url: string): string {
  const u = new URL(url);
  return u.protocol === 'file:' ? 'file://' : `${u.origin}/`;
}
