import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderRunPage } from '../../src/page/index.ts';
import type { Citation } from '../../src/schemas/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { PageBrowser, PageServer } from './browser.ts';
import { factsFor, oneFailureRun } from './fixtures.ts';

/**
 * Report, log and code text is hostile: it reaches the page from test output anyone can write.
 * Every text field of a run carries markup, event handlers and script URLs here; in Chromium
 * with JavaScript ON, none of it may become an element, an attribute or a link.
 */
const SCRIPT = `<script>alert('script')</script>`;
const IMG = `<img src=x onerror="alert('img')">`;
const SVG = `"><svg onload=alert('svg')>`;
const ATTR = `' onmouseover='alert(1)' x='`;
const JS_URL = `javascript:alert('js')`;
const H = `${SCRIPT} ${IMG} ${SVG} ${ATTR}`;

let dir: string;
let store: EvidenceStore;
let browser: PageBrowser;
let server: PageServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-hostile-'));
  store = new EvidenceStore({ root: join(dir, 'evidence') });
  server = await PageServer.start();
  browser = await PageBrowser.launch();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function hostileInput(evidenceId: string, gerritBase: string, links: { self: string; evidenceForm: string }) {
  const cites: Citation[] = [
    { kind: 'evidence', id: evidenceId, lines: { start: 2, end: 2 }, quote: H },
    { kind: 'code', file: `src/${SVG}.py`, lines: { start: 1, end: 1 } },
    { kind: 'diff', file: JS_URL },
    { kind: 'signal', name: H, detail: H },
    { kind: 'fact', issue_id: '001', index: 0 },
  ];
  const claim = { text: H, cites };
  const run = oneFailureRun(
    {
      test: H,
      report_url: JS_URL,
      place: { level: 'line', file: `src/${SVG}.py`, function: H, lines: { start: 1, end: 1 } },
      why: [claim, { text: `${JS_URL} \u202eevil`, cites }],
      change: { target: 'code', file: H, function: H, advice: claim, rationale: claim, impact: [H] },
      fix: {
        description: H,
        replacements: [
          {
            path: `src/${SVG}.py`,
            range: { start_line: 1, start_character: 0, end_line: 1, end_character: 1 },
            replacement: H,
          },
        ],
        verification: { command: `</code></pre>${SCRIPT}`, outcome: 'passed', evidence: evidenceId },
      },
      verify: [`</code></pre>${SCRIPT}`],
      missing_evidence: [{ what: H, who: 'qa' }],
      alternatives: [claim],
      triage: {
        verdict: 'caused_by_change',
        category: 'code_regression',
        channel: 'test',
        signals: [{ kind: 'diff_impact', detail: H, cites }],
        signature: H,
      },
      check: {
        findings: [{ code: 'uncited_claim', severity: 'warning', path: H, message: H }],
        repair_rounds: 1,
        degraded: true,
      },
    },
    {
      change: { project: `shop${SVG}`, number: 7, patchset: 2, revision: 'b'.repeat(40) },
      report_url: JS_URL,
      engine: { name: 'model', model: H, note: H },
    },
  );
  const facts = factsFor({
    summary: H,
    url: JS_URL,
    facts: [
      { type: 'error', value: H, name: H, evidence: evidenceId },
      { type: 'attachment', value: `data:text/html,${SCRIPT}` },
    ],
    warnings: [H],
    candidates: [
      {
        level: 'line',
        file: `src/${SVG}.py`,
        function: { name: H, lines: { start: 1, end: 2 } },
        lines: { start: 1, end: 1 },
        reasons: [H],
        diff_impact: { kind: 'in_hunk', changed_lines: [{ start: 1, end: 1 }], related_functions: [] },
        candidate: {
          file: `src/${SVG}.py`,
          lines: { start: 1, end: 2 },
          text: `x = "</span>${SCRIPT}"\n# ${IMG}`,
          truncated: false,
        },
        alternatives: [{ file: H, via: H, score: 1 }],
        reported: { role: 'failure', frame_index: 0, file: H, line: 1, function: H },
      },
    ],
  });
  return { run, facts, evidence: store, gerrit: { baseUrl: gerritBase }, links };
}

describe('hostile text on the report page', () => {
  it.each([
    [
      'with Gerrit and our own links',
      'https://gerrit.example.com',
      { self: '/runs/h1', evidenceForm: '/runs/h1/evidence' },
    ],
    ['with script URLs for Gerrit and our links', `${JS_URL}//`, { self: JS_URL, evidenceForm: `${JS_URL}` }],
  ])('never becomes live markup, a handler or a script link (%s)', async (_name, gerrit, links) => {
    const evidenceId = store.put(`line one\n${H} ${JS_URL}\n\u001b[31mred\u001b[0m`, {
      kind: 'log',
      source: H,
    });
    const html = await renderRunPage(hostileInput(evidenceId, gerrit, links));
    server.pages.set('/runs/h', html);
    const opened = await browser.open({ javaScript: true, origin: server.origin });
    try {
      const { page } = opened;
      await page.goto(`${server.origin}/runs/h`);
      for (const summary of await page.locator('summary').all()) await summary.click();

      const dom = await page.evaluate(() => {
        const all = [...document.querySelectorAll('*')];
        return {
          scripts: document.scripts.length,
          embedded: document.querySelectorAll('img, svg, iframe, object, embed, base, meta[http-equiv]')
            .length,
          handlers: all.flatMap((e) => e.getAttributeNames().filter((n) => n.startsWith('on'))),
          urls: all.flatMap((e) =>
            ['href', 'src', 'action', 'formaction', 'srcset'].flatMap((n) => {
              const v = e.getAttribute(n);
              return v === null ? [] : [v];
            }),
          ),
          text: document.body.textContent ?? '',
        };
      });

      expect(html).not.toMatch(/<script/i);
      expect(opened.dialogs).toEqual([]);
      expect(dom.scripts).toBe(0);
      expect(dom.embedded).toBe(0);
      expect(dom.handlers).toEqual([]);
      for (const url of dom.urls) expect(url).toMatch(/^(https?:\/\/|#|\/(?!\/))/);
      expect(dom.text).toContain(SCRIPT);
      expect(dom.text).toContain(IMG);
      expect(dom.text).toContain(JS_URL);
      // Bidi overrides are shown by code point instead of silently reordering the line.
      expect(dom.text).toContain('\u27e8U+202E\u27e9evil');
      expect(dom.text).not.toContain('\u202e');
      // Terminal colour codes from logs are dropped.
      expect(dom.text).toContain('red');
      expect(dom.text).not.toContain('\u001b');
    } finally {
      await opened.close();
    }
  });

  it('links to Gerrit with the project and path percent-encoded, and drops links it cannot make safe', async () => {
    const evidenceId = store.put('x', { kind: 'log', source: 'test' });

    const html = await renderRunPage(
      hostileInput(evidenceId, 'https://gerrit.example.com/', { self: '/r', evidenceForm: '/r/e' }),
    );

    expect(html).toContain(
      'href="https://gerrit.example.com/c/shop%22%3E%3Csvg%20onload%3Dalert(&#39;svg&#39;)%3E/+/7/2/src/%22%3E%3Csvg%20onload%3Dalert(&#39;svg&#39;)%3E.py#1"',
    );
    expect(html).not.toContain('href="javascript');
    expect(html).not.toMatch(/href="[^"]*data:/);
  });

  it('without a safe evidence URL, renders no form (and no permalink)', async () => {
    const evidenceId = store.put('x', { kind: 'log', source: 'test' });

    const html = await renderRunPage(
      hostileInput(evidenceId, 'https://g.example.com', { self: JS_URL, evidenceForm: JS_URL }),
    );

    expect(html).not.toContain('<form');
    expect(html).toContain('Evidence cannot be added from this page.');
    expect(html).not.toContain('permalink');
  });
});
