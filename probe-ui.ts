import { BrowserSession, originOf } from './scraper/browser/index.ts';
import { serveDir } from './test/helpers/static-server.ts';
const srv = await serveDir(process.argv[2]!);
const id = process.argv[3]!;
const b = await BrowserSession.open(originOf(srv.url));
const strip = (h: string) => h.replace(/<svg[\s\S]*?<\/svg>/g, '<svg/>').replace(/ class="[^"]*"/g, '').replace(/ style="[^"]*"/g, '').replace(/ (tabindex|data-icon-color|type)="[^"]*"/g, '');
try {
  await b.withPage(async (page) => {
    await page.goto(`${srv.url}index.html#categories/${id}`);
    await page.waitForSelector('[data-testid=test-result-info-title]');
    await page.waitForTimeout(500);
    const dump = async (label: string) => console.log(`==== ${label}\n`, strip(await page.locator('[data-testid=base-layout] [data-tr-scroll-container]').first().evaluate((e) => e.outerHTML)).slice(0, 20000));
    await dump("initial"); const t = page.locator("[data-testid=test-result-steps-subtree-toggle]"); if (await t.count()) { await t.first().click(); await page.waitForTimeout(300); await dump("after subtree toggle"); }
    const err = page.locator('button[aria-label="Error"]');
    if (await err.count()) { await err.first().click(); await page.waitForTimeout(300); await dump('after Error click'); }
  });
} finally { await b.close(); await srv.close(); }
