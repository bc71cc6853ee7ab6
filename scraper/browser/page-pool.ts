import type { Page } from 'playwright-core';
import type { BrowserSession } from './session.ts';

/**
 * Pages that load the report app once and are then reused for failure after failure: a
 * single-page report UI moves by route without reloading its scripts, which is what makes DOM
 * mode fast enough for big runs. Never more users than pages: callers bound their parallelism
 * by `size`.
 */
export class PagePool {
  private constructor(
    private readonly free: Page[],
    private readonly all: readonly Page[],
  ) {}

  get size(): number {
    return this.all.length;
  }

  static async open(
    browser: BrowserSession,
    size: number,
    prepare: (page: Page) => Promise<void>,
  ): Promise<PagePool> {
    const pages = await Promise.all(Array.from({ length: Math.max(1, size) }, () => browser.newPage()));
    const prepared = await Promise.allSettled(pages.map(prepare));
    const failed = prepared.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await Promise.all(pages.map((page) => page.close()));
      throw failed.reason;
    }
    return new PagePool([...pages], pages);
  }

  async use<T>(work: (page: Page) => Promise<T>): Promise<T> {
    const page = this.free.pop();
    if (page === undefined) throw new Error('page pool exhausted: more users than pages');
    try {
      return await work(page);
    } finally {
      this.free.push(page);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.map((page) => page.close()));
  }
}
