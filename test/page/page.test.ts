import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_FORM_KINDS, renderRunPage } from '../../src/page/index.ts';
import type { DiagnosisRun, FactsDocument } from '../../src/schemas/index.ts';
import { type OpenedPage, PageBrowser, PageServer } from './browser.ts';
import { withCase } from './render-case.ts';

/**
 * The report page of real runs: corpus cases diagnosed by the rules engine, rendered with their
 * evidence store and code, served on loopback and read in Debian's Chromium with JavaScript off.
 * Each case leaves a full-page screenshot in var/page-screenshots/ to look at.
 */
const CASES = [
  'price-rounding',
  'db-refused',
  'dirty-fixture',
  'login-params',
  'order-assembler',
  'pre-existing',
];
const GERRIT = 'https://gerrit.example.com';
const SCREENSHOTS = new URL('../../var/page-screenshots/', import.meta.url).pathname;

interface Rendered {
  run: DiagnosisRun;
  facts: FactsDocument;
  html: string;
  path: string;
}

let browser: PageBrowser;
let server: PageServer;
const rendered = new Map<string, Rendered>();

beforeAll(async () => {
  server = await PageServer.start();
  browser = await PageBrowser.launch();
  for (const id of CASES) {
    const path = `/runs/${id}`;
    const out = await withCase(id, async ({ facts, run, store, code }) => ({
      facts,
      run,
      html: await renderRunPage({
        run,
        facts,
        evidence: store,
        code,
        gerrit: { baseUrl: GERRIT },
        links: { self: path, evidenceForm: `${path}/evidence` },
      }),
    }));
    rendered.set(id, { ...out, path });
    server.pages.set(path, out.html);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function caseOf(id: string): Rendered {
  const found = rendered.get(id);
  if (found === undefined) throw new Error(`case ${id} was not rendered`);
  return found;
}

async function openCase(id: string, width = 1280): Promise<OpenedPage> {
  const opened = await browser.open({ javaScript: false, origin: server.origin, width });
  await opened.page.goto(`${server.origin}${caseOf(id).path}`);
  return opened;
}

async function hrefs(opened: OpenedPage, selector: string): Promise<string[]> {
  return opened.page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
}

describe('the report page of a real run (price-rounding, rules engine)', () => {
  let opened: OpenedPage;
  beforeAll(async () => {
    opened = await openCase('price-rounding');
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('names the change and patchset and links back to Gerrit', async () => {
    const { page } = opened;

    const title = await page.title();
    const h1 = await page.locator('h1').textContent();
    const change = await page.getByRole('link', { name: 'Change 42 on Gerrit' }).getAttribute('href');

    expect(title).toBe('CI failure diagnosis — pricing-service · change 42 · patchset 3');
    expect((h1 ?? '').replace(/\s+/g, ' ')).toBe('pricing-service · change 42 · patchset 3');
    expect(change).toBe(`${GERRIT}/c/pricing-service/+/42/3`);
    await expect(page.locator('header.top').textContent()).resolves.toMatch(/Engine: built-in rules engine/);
    await expect(page.locator('header.top').textContent()).resolves.toMatch(/Tokens: 0/);
  });

  it('lists every failure in the summary table, each linking to its section', async () => {
    const { run } = caseOf('price-rounding');

    const rows = opened.page.locator('table.overview tbody tr');
    const links = await hrefs(opened, 'table.overview tbody a');

    await expect(rows.count()).resolves.toBe(run.failures.length);
    expect(links).toEqual(run.failures.map((_, i) => `#failure-${i + 1}`));
    for (const link of links) await expect(opened.page.locator(link).count()).resolves.toBe(1);
    const first = await rows.first().textContent();
    expect(first).toContain(run.failures[0]?.test);
    expect(first).toContain('Caused by this change');
    expect(first).toContain('code regression');
    expect(first).toContain('function confirmed');
  });

  it('shows the place with its confidence and the highlighted code, each line number linking to the Gerrit file view', async () => {
    const { run } = caseOf('price-rounding');
    const place = run.failures[0]?.place;
    const section = opened.page.locator('#failure-1 .part-place');

    const text = await section.textContent();
    const numbers = await hrefs(opened, '#failure-1-place td.ln a');
    const keywords = await section.locator('.hljs-keyword').count();
    const changed = await section.locator('tr.m-changed td.ln').allTextContents();

    expect(place?.file).toBe('pricing/price.py');
    expect(text).toContain('function confirmed');
    expect(text).toContain('pricing/price.py');
    expect(text).toContain('def gross_price(');
    expect(keywords).toBeGreaterThan(0);
    expect(numbers.length).toBeGreaterThan(0);
    for (const href of numbers)
      expect(href).toMatch(
        /^https:\/\/gerrit\.example\.com\/c\/pricing-service\/\+\/42\/3\/pricing\/price\.py#\d+$/,
      );
    expect(numbers).toContain(`${GERRIT}/c/pricing-service/+/42/3/pricing/price.py#${place?.lines?.start}`);
    // The lines this change touched (the diff the diagnosis cites) are marked in the excerpt.
    expect(changed).toEqual(['14', '15', '16']);
  });

  it('shows the causal chain with its citations; code and diff citations link to file lines', async () => {
    const { run } = caseOf('price-rounding');
    const why = run.failures[0]?.why ?? [];

    const steps = opened.page.locator('#failure-1 ol.chain > li');
    const cited = await hrefs(opened, '#failure-1 ol.chain .cites a');

    await expect(steps.count()).resolves.toBe(why.length);
    for (const [i, claim] of why.entries()) {
      await expect(steps.nth(i).locator('p.claim').textContent()).resolves.toBe(claim.text);
    }
    expect(cited).toContain(`${GERRIT}/c/pricing-service/+/42/3/pricing/price.py#14`);
    expect(cited).toContain(`${GERRIT}/c/pricing-service/+/42/3/tests/test_price.py#14`);
  });

  it('opens a cited evidence item without JavaScript, showing a bounded fragment of it', async () => {
    const details = opened.page.locator('#failure-1 ol.chain details.ev').first();
    const body = details.locator('.code');

    await expect(body.isVisible()).resolves.toBe(false);
    await details.locator('summary').click();

    await expect(body.isVisible()).resolves.toBe(true);
    await expect(body.textContent()).resolves.toContain(
      "AssertionError: assert Decimal('2.67') == Decimal('2.68')",
    );
    await expect(details.locator('.extent').textContent()).resolves.toMatch(/^Evidence ev_[0-9a-f]{24}/);
  });

  it("has the fix plan, how to verify, alternatives, the report's facts, the checker's findings and usage", async () => {
    const failure = caseOf('price-rounding').run.failures[0];

    const text = await opened.page.locator('#failure-1').textContent();

    expect(text).toContain('What to change');
    expect(text).toContain('Change the code');
    expect(text).toContain(failure?.change?.advice.text);
    expect(text).toContain('Why there');
    expect(text).toContain('How to verify');
    expect(text).toContain(failure?.verify[0]);
    expect(text).toContain('Other explanations still standing');
    expect(text).toContain(failure?.alternatives[0]?.text.slice(0, 60));
    expect(text).toContain('Deterministic signals');
    expect(text).toContain('What the report shows');
    expect(text).toContain('Frames the report gave, checked at the revision');
    expect(text).toContain("The checker's findings");
    expect(text).toContain('no findings');
    expect(text).toContain('No model calls');
  });

  it('has the QA form: kind, failure, text and file, labelled, posting multipart to the evidence URL', async () => {
    const { page } = opened;
    const form = page.locator('form.qa');

    const attrs = await form.evaluate((f) => ({
      method: f.getAttribute('method'),
      enctype: f.getAttribute('enctype'),
      action: f.getAttribute('action'),
    }));
    const kinds = await page
      .getByLabel('Kind')
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value')));
    const failures = await page
      .getByLabel('Failure', { exact: true })
      .locator('option')
      .evaluateAll((os) => os.map((o) => o.getAttribute('value')));

    expect(attrs).toEqual({
      method: 'post',
      enctype: 'multipart/form-data',
      action: '/runs/price-rounding/evidence',
    });
    expect(kinds).toEqual(Object.keys(EVIDENCE_FORM_KINDS));
    expect(failures).toEqual(['', ...caseOf('price-rounding').run.failures.map((f) => f.issue_id)]);
    await expect(page.getByLabel('Text').evaluate((e) => e.tagName)).resolves.toBe('TEXTAREA');
    await expect(page.getByLabel('File').getAttribute('type')).resolves.toBe('file');
  });

  it('loads nothing but itself and has no script; every link is http(s), an anchor or our own path', async () => {
    const all = await hrefs(opened, 'a[href]');
    const scripts = await opened.page.locator('script').count();

    expect(opened.requests).toEqual([`${server.origin}/runs/price-rounding`]);
    expect(scripts).toBe(0);
    for (const href of all) expect(href).toMatch(/^(https?:\/\/|#|\/(?!\/))/);
  });
});

describe('a run with evidence citations and missing evidence (db-refused)', () => {
  let opened: OpenedPage;
  beforeAll(async () => {
    opened = await openCase('db-refused');
  });
  afterAll(async () => {
    await opened?.close();
  });

  it('shows the cited line of the evidence, marked, and the quote', async () => {
    const cite = opened.page.locator('#failure-1 ol.chain details.ev', { hasText: 'evidence' }).last();

    await cite.locator('summary').click();

    await expect(cite.locator('summary').textContent()).resolves.toContain('connection refused');
    await expect(cite.locator('tr.m-cited').textContent()).resolves.toContain(
      'open orders database: dial tcp 127.0.0.1:55432: connect: connection refused',
    );
  });

  it('says what evidence is missing and who can provide it, pointing at the form', async () => {
    const missing = opened.page.locator('#failure-1 .part-missing');

    const text = await missing.textContent();

    expect(text).toContain('infrastructure team');
    expect(text).toContain('confirmation that the services and resources the test needs were available');
    await expect(missing.getByRole('link', { name: 'Add evidence' }).getAttribute('href')).resolves.toBe(
      '#add-evidence',
    );
  });

  it('says an environment failure needs no code change and shows no lines the locator did not confirm', async () => {
    const text = await opened.page.locator('#failure-1').textContent();

    expect(text).toContain('Fix the environment (no code change)');
    // The Go log line is in the test function the report names; its line is not confirmed.
    expect(text).toContain('function confirmed');
    expect(text).toContain('the exact line could not be confirmed');
    expect(await opened.page.locator('#failure-1 .place').textContent()).not.toMatch(/lines? \d/);
  });
});

describe('the QA form without JavaScript', () => {
  it('posts kind, failure, text and file as multipart/form-data to the evidence URL', async () => {
    const opened = await openCase('price-rounding');
    try {
      const { page } = opened;
      await page.getByLabel('Kind').selectOption('trace_id');
      await page.getByLabel('Failure', { exact: true }).selectOption('002');
      await page.getByLabel('Text').fill('trace 4bf92f3577b34da6a3ce929d0e0e4736');
      await page.getByLabel('File').setInputFiles({
        name: 'rerun.log',
        mimeType: 'text/plain',
        buffer: Buffer.from('PASSED on re-run\n'),
      });

      await page.getByRole('button', { name: 'Add evidence and diagnose again' }).click();
      await page.waitForURL(`${server.origin}/runs/price-rounding/evidence`);

      const post = server.posted.at(-1);
      expect(post?.path).toBe('/runs/price-rounding/evidence');
      expect(post?.contentType).toMatch(/^multipart\/form-data; boundary=/);
      expect(post?.body).toMatch(/name="kind"\r\n\r\ntrace_id\r\n/);
      expect(post?.body).toMatch(/name="failure"\r\n\r\n002\r\n/);
      expect(post?.body).toMatch(/name="text"\r\n\r\ntrace 4bf92f3577b34da6a3ce929d0e0e4736\r\n/);
      expect(post?.body).toMatch(
        /name="file"; filename="rerun.log"\r\nContent-Type: text\/plain\r\n\r\nPASSED on re-run\n/,
      );
    } finally {
      await opened.close();
    }
  });
});

describe.each(CASES)('%s', (id) => {
  it('renders every failure with its verdict and place, and leaves a full-page screenshot', async () => {
    const { run } = caseOf(id);
    const opened = await openCase(id);
    try {
      const sections = opened.page.locator('section.failure');
      await expect(sections.count()).resolves.toBe(run.failures.length);
      for (const [i, f] of run.failures.entries()) {
        const head = await sections.nth(i).locator('.failure-head').textContent();
        expect(head).toContain(f.test);
      }
      await expect(opened.page.locator('script').count()).resolves.toBe(0);

      mkdirSync(SCREENSHOTS, { recursive: true });
      await opened.page.screenshot({ path: join(SCREENSHOTS, `${id}.png`), fullPage: true });
    } finally {
      await opened.close();
    }
  });
});

describe('on a phone-sized screen', () => {
  it('fits the width: nothing but code scrolls sideways', async () => {
    const opened = await openCase('price-rounding', 390);
    try {
      const page = opened.page;
      const width = await page.evaluate(() => document.documentElement.scrollWidth);

      expect(width).toBeLessThanOrEqual(390);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, 'price-rounding-phone.png'), fullPage: true });
    } finally {
      await opened.close();
    }
  });
});
