export { BrowserSession, CHROMIUM_ARGS, DEFAULT_BROWSER, originOf, type BrowserOptions } from './session.ts';
