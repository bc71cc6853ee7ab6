export { BrowserSession, CHROMIUM_ARGS } from './browser/index.ts';
export { FactsBuilder } from './facts/index.ts';
export type { Progress, ScrapeLimits } from './platforms/types.ts';
export {
  DEFAULT_LIMITS,
  type RunIdentity,
  type ScrapeDeps,
  type ScrapeOptions,
  scrapeReport,
} from './scrape.ts';
export { serveDir } from './source/index.ts';
