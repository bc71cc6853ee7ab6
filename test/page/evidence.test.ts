import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../src/errors/index.ts';
import { type FragmentReader, PAGE_EVIDENCE_LIMITS, renderRunPage } from '../../src/page/index.ts';
import type { Citation } from '../../src/schemas/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { factsFor, oneFailureRun } from './fixtures.ts';

const LINKS = { self: '/runs/run-1', evidenceForm: '/runs/run-1/evidence' };
const ABSENT = 'ev_000000000000000000000000';

let dir: string;
let store: EvidenceStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'page-evidence-'));
  store = new EvidenceStore({ root: join(dir, 'evidence') });
});

afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function citing(cites: Citation[]) {
  return oneFailureRun({ why: [{ text: 'the claim', cites }] });
}

/** Text content of the page, tags dropped and entities of the escaper decoded, for plain assertions. */
function textOf(html: string): string {
  return html
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('evidence that cannot be read', () => {
  it('renders as "evidence unavailable" when the item is not in the store, and the page goes on', async () => {
    const run = citing([
      { kind: 'evidence', id: ABSENT, lines: { start: 3, end: 4 }, quote: 'boom' },
      { kind: 'code', file: 'src/app.py', lines: { start: 3, end: 3 } },
    ]);
    const facts = factsFor({ facts: [{ type: 'trace', value: 'Traceback (3 lines)', evidence: ABSENT }] });

    const html = await renderRunPage({ run, facts, evidence: store, links: LINKS });
    const text = textOf(html);

    expect(text).toContain(
      `${ABSENT} — evidence unavailable: the item could not be read from the evidence store (EVIDENCE_NOT_FOUND).`,
    );
    expect(text.match(/evidence unavailable/g)).toHaveLength(2);
    expect(text).toContain('What to change');
    expect(html).toContain('<form class="qa"');
  });

  it('renders as "evidence unavailable" when the reader fails for any reason (a closed store)', async () => {
    const closed = new EvidenceStore({ root: join(dir, 'closed') });
    const id = closed.put('some log', { kind: 'log', source: 'test' });
    closed.close();

    const html = await renderRunPage({
      run: citing([{ kind: 'evidence', id }]),
      facts: factsFor(),
      evidence: closed,
      links: LINKS,
    });

    expect(textOf(html)).toContain(
      `${id} — evidence unavailable: the item could not be read from the evidence store.`,
    );
  });

  it('reads a missing fact or citation to an unknown issue as "not in the facts"', async () => {
    const html = await renderRunPage({
      run: citing([{ kind: 'fact', issue_id: '999', index: 4 }]),
      facts: factsFor(),
      evidence: store,
      links: LINKS,
    });

    expect(textOf(html)).toContain('fact 4 of issue 999 not in the facts');
  });
});

describe('evidence is read by bounded fragment, never whole', () => {
  /** A reader over a 10,000-line log that records which ranges the page asked for. */
  function recordingReader(lineOf: (n: number) => string = (n) => `log line ${n}`) {
    const asked: Array<[number, number]> = [];
    const total = 10_000;
    const reader: FragmentReader = {
      readFragment: async (id, from = 1, to = from + 399) => {
        asked.push([from, to]);
        if (id === ABSENT) throw new DiagnosisError('EVIDENCE_NOT_FOUND', 'not here');
        const last = Math.min(to, total);
        const lines = Array.from({ length: last - from + 1 }, (_, i) => lineOf(from + i));
        return { id, from, to: last, total_lines: total, text: lines.join('\n'), truncated: last < to };
      },
    };
    return { reader, asked };
  }
  const ID = 'ev_111111111111111111111111';

  it('asks for the cited lines and a few around them; with no lines cited, for the first lines only', async () => {
    const { reader, asked } = recordingReader();
    const run = citing([
      { kind: 'evidence', id: ID, lines: { start: 5000, end: 5001 } },
      { kind: 'evidence', id: ID },
    ]);

    const html = await renderRunPage({ run, facts: factsFor(), evidence: reader, links: LINKS });
    const text = textOf(html);

    expect(asked).toEqual([
      [4997, 5004],
      [1, PAGE_EVIDENCE_LIMITS.maxLines],
    ]);
    expect(text).toContain('lines 4997–5004 of 10000');
    expect(text).toContain('lines 1–40 of 10000');
    expect(text).not.toContain('log line 41\n');
    expect(html).toMatch(/<tr class="m-cited" title="cited"><td class="ln">5000<\/td>/);
  });

  it('caps a cited range at the page limit and cuts very long lines', async () => {
    const { reader, asked } = recordingReader((n) => (n === 2 ? 'x'.repeat(100_000) : `line ${n}`));
    const run = citing([{ kind: 'evidence', id: ID, lines: { start: 1, end: 9000 } }]);

    const html = await renderRunPage({ run, facts: factsFor(), evidence: reader, links: LINKS });

    expect(asked).toEqual([[1, PAGE_EVIDENCE_LIMITS.maxLines]]);
    expect(html).toContain(`${'x'.repeat(PAGE_EVIDENCE_LIMITS.maxLineChars)} …`);
    expect(html).not.toContain('x'.repeat(PAGE_EVIDENCE_LIMITS.maxLineChars + 1));
    expect(textOf(html)).toContain('long lines cut');
  });

  it('reads each distinct fragment once per page, however often it is cited', async () => {
    const { reader, asked } = recordingReader();
    const cite: Citation = { kind: 'evidence', id: ID, lines: { start: 10, end: 10 } };
    const run = oneFailureRun({
      why: [
        { text: 'one', cites: [cite] },
        { text: 'two', cites: [cite, cite] },
      ],
      alternatives: [{ text: 'three', cites: [cite] }],
    });

    await renderRunPage({ run, facts: factsFor(), evidence: reader, links: LINKS });

    expect(asked).toEqual([[7, 13]]);
  });
});

describe('a model run with a verified fix', () => {
  it('shows the engine, the tokens, the edit, its verification and the output of the verifying run', async () => {
    const output = store.put('===== 1 passed in 0.02s =====', { kind: 'log', source: 'pytest' });
    const run = oneFailureRun({
      fix: {
        description: 'sum every item',
        replacements: [
          {
            path: 'src/app.py',
            range: { start_line: 3, start_character: 4, end_line: 3, end_character: 27 },
            replacement: 'return sum(items)',
          },
        ],
        verification: { command: 'pytest tests/test_app.py', outcome: 'passed', evidence: output },
      },
    });

    const html = await renderRunPage({
      run,
      facts: factsFor(),
      evidence: store,
      gerrit: { baseUrl: 'https://review.example.org/gerrit/' },
      links: LINKS,
    });
    const text = textOf(html);

    expect(text).toContain('Engine: model claude-test');
    expect(text).toMatch(/Tokens: 1,500\s*\(1,200 in, 300 out\)/);
    expect(text).toContain('Tool calls: 4');
    expect(text).toContain('Model time: 2.30 s');
    expect(text).toContain('Verified fix');
    expect(text).toContain('return sum(items)');
    expect(text).toContain('===== 1 passed in 0.02s =====');
    expect(html).toContain('href="https://review.example.org/gerrit/c/shop/+/7/2/src/app.py#3"');
    expect(html).toContain('href="https://review.example.org/gerrit/c/shop/+/7/2"');
  });
});
