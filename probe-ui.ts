import { BrowserSession, originOf } from './scraper/browser/index.ts';
import { serveDir } from './test/helpers/static-server.ts';
const srv = await serveDir(process.argv[2]!);
const id = process.argv[3]!;
const b = await BrowserSession.open(originOf(srv.url));
const strip = (h: string) => h.replace(/<svg[\s\S]*?<\/svg>/g, '<svg/>').replace(/ class="[^"]*"/g, '').replace(/ style="[^"]*"/g, '');
try {
  await b.withPage(async (page) => {
    await page.goto(`${srv.url}index.html#categories`);
    await page.waitForSelector('div[id^="cat:"]');
    for (const cat of await page.locator('div[id^="cat:"]').all()) await cat.locator('[data-testid="tree-arrow"]').first().click();
    await page.locator(`button[data-tree-node-id="${id}"]`).click();
    await page.waitForTimeout(1000);
    console.log('URL', page.url());
    const main = await page.locator('[data-testid=test-result-error-message]').first().evaluate((e) => {
      let p: Element = e; for (let i = 0; i < 6 && p.parentElement; i++) p = p.parentElement; return p.outerHTML; });
    console.log(strip(main).slice(0, 12000));
    console.log('TESTIDS', await page.evaluate(() => [...new Set([...document.querySelectorAll('[data-testid]')].map(e => e.getAttribute('data-testid')))].join(' ')));
    console.log('ARIA', await page.evaluate(() => [...new Set([...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')))].join(' | ')));
  });
} finally { await b.close(); await srv.close(); }
