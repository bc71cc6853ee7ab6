import { openReportSource } from './scraper/source/report-source.ts';
import { junitAdapter } from './scraper/platforms/junit/index.ts';
import { collectingContext } from './test/helpers/scrape-context.ts';
for (const input of process.argv.slice(2)) {
  const source = await openReportSource(input);
  console.log('detect', await junitAdapter.detect(source));
  const c = collectingContext(source, 'file');
  const summary = await junitAdapter.scrape(c.ctx);
  console.log(JSON.stringify(summary));
  for (const f of c.failures()) console.log(JSON.stringify({ ...f, source: f.source?.text.length, attachments: f.attachments.map(a => [a.name, a.body?.toString()]) }, null, 1));
}
