export { PagePool } from './page-pool.ts';
export { type BrowserOptions, BrowserSession, CHROMIUM_ARGS, DEFAULT_BROWSER, originOf } from './session.ts';
