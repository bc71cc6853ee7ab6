import type { PlatformAdapter } from '../types.ts';
import { scrapeAllure2Data } from './data.ts';
import { scrapeAllure2Dom } from './dom.ts';
import { openReportFiles } from './files.ts';

export const allure2Adapter: PlatformAdapter = {
  platform: 'allure2',
  modes: ['data', 'dom'],
  async detect(source) {
    const files = await openReportFiles(source);
    // Allure 3's Awesome report has no data/categories.json; Allure 2 (and Allure 3's allure2 UI) does.
    return (await files.bytes('data/categories.json')) !== null;
  },
  scrape: (ctx) => (ctx.mode === 'dom' ? scrapeAllure2Dom(ctx) : scrapeAllure2Data(ctx)),
};
