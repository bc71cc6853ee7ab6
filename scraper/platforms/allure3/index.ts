import type { PlatformAdapter } from '../types.ts';
import { scrapeAllure3Data } from './data.ts';
import { scrapeAllure3Dom } from './dom.ts';
import { isAllure3 } from './files.ts';

/** Allure 3 "Awesome" reports (npm `allure` 3.x): data files or the UI, same RawFailures. */
export const allure3Adapter: PlatformAdapter = {
  platform: 'allure3',
  modes: ['data', 'dom'],
  detect: isAllure3,
  scrape: (ctx) => (ctx.mode === 'dom' ? scrapeAllure3Dom(ctx) : scrapeAllure3Data(ctx)),
};

export { MISSED_ATTACHMENT, toRawFailure } from './data.ts';
export { failuresInTree, level3Url } from './listing.ts';
export { formatDuration, parseDuration, shownSteps } from './shown.ts';
