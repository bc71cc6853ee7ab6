import { isDiagnosisError } from '../errors/index.ts';
import type { LineRange } from '../schemas/index.ts';
import type { EvidenceFragment } from '../store/evidence/index.ts';
import { codeTable, inRanges } from './code.ts';
import { type Html, html } from './html.ts';
import { plural } from './wording.ts';

/** What the page needs of the evidence store: bounded fragments, never a whole item. */
export interface FragmentReader {
  readFragment(id: string, from?: number, to?: number): Promise<EvidenceFragment>;
}

/**
 * Bounds of what the page shows of one evidence item and of all of them: a page is for reading,
 * the evidence store keeps the rest (and the report has the original).
 */
export const PAGE_EVIDENCE_LIMITS = {
  /** Lines shown around a cited range, or from the top when no range is cited. */
  maxLines: 40,
  /** Lines of context either side of a cited range. */
  context: 3,
  maxChars: 8_000,
  maxLineChars: 400,
  /** Fragments shown on one page; later citations name their evidence without it. */
  maxFragments: 400,
};

export type Excerpt =
  | { ok: true; id: string; from: number; lines: string[]; total: number; cut: boolean }
  | { ok: false; id: string; reason: 'unavailable' | 'page_limit'; code: string | null };

/** Reads fragments for one page: each distinct range once, within the page's budget. */
export class EvidenceView {
  private readonly cache = new Map<string, Promise<Excerpt>>();

  constructor(
    private readonly reader: FragmentReader,
    private readonly limits = PAGE_EVIDENCE_LIMITS,
  ) {}

  read(id: string, cited?: LineRange): Promise<Excerpt> {
    const { maxLines, context } = this.limits;
    const from = cited === undefined ? 1 : Math.max(1, cited.start - context);
    const to =
      cited === undefined
        ? maxLines
        : Math.min(Math.max(cited.end, cited.start) + context, from + maxLines - 1);
    const key = `${id}:${from}:${to}`;
    const known = this.cache.get(key);
    if (known !== undefined) return known;
    const excerpt: Promise<Excerpt> =
      this.cache.size >= this.limits.maxFragments
        ? Promise.resolve({ ok: false, id, reason: 'page_limit', code: null })
        : this.fetch(id, from, to);
    this.cache.set(key, excerpt);
    return excerpt;
  }

  private async fetch(id: string, from: number, to: number): Promise<Excerpt> {
    let fragment: EvidenceFragment;
    try {
      fragment = await this.reader.readFragment(id, from, to);
    } catch (err: unknown) {
      // A missing or unreadable item must not take the page down: the page says so instead,
      // naming the error's code (never its internals).
      return { ok: false, id, reason: 'unavailable', code: isDiagnosisError(err) ? err.code : null };
    }
    const { maxChars, maxLineChars } = this.limits;
    const lines: string[] = [];
    let chars = 0;
    let cut = false;
    const all = fragment.text === '' && fragment.to < fragment.from ? [] : fragment.text.split(/\r?\n/);
    for (const line of all) {
      if (chars >= maxChars) {
        cut = true;
        break;
      }
      const clipped = line.length > maxLineChars ? `${line.slice(0, maxLineChars)} …` : line;
      cut ||= clipped !== line;
      lines.push(clipped);
      chars += clipped.length + 1;
    }
    return { ok: true, id: fragment.id, from: fragment.from, lines, total: fragment.total_lines, cut };
  }
}

/** An excerpt as numbered lines, cited lines marked, with what part of the item it is. */
export function excerptBlock(excerpt: Excerpt, cited?: LineRange): Html {
  if (!excerpt.ok) return unavailable(excerpt);
  if (excerpt.lines.length === 0) return html`<p class="muted">The evidence item is empty.</p>`;
  const last = excerpt.from + excerpt.lines.length - 1;
  const whole = excerpt.from === 1 && last >= excerpt.total && !excerpt.cut;
  const extent = whole
    ? `the whole item, ${plural(excerpt.total, 'line')}`
    : `lines ${excerpt.from}–${last} of ${excerpt.total}${excerpt.cut ? ', long lines cut' : ''}`;
  const table = codeTable(
    excerpt.lines.map((l) => html`${l}`),
    {
      first: excerpt.from,
      label: `evidence ${excerpt.id}, ${extent}`,
      ...(cited === undefined ? {} : { marks: (n: number) => (inRanges(n, [cited]) ? ['cited'] : []) }),
    },
  );
  return html`${table}<p class="extent">Evidence <code>${excerpt.id}</code>: ${extent}.</p>`;
}

function unavailable(excerpt: Extract<Excerpt, { ok: false }>): Html {
  const why =
    excerpt.reason === 'page_limit'
      ? 'not shown: this page already shows as many evidence excerpts as it may'
      : 'evidence unavailable: the item could not be read from the evidence store';
  const code = excerpt.code === null ? '' : html` (<code>${excerpt.code}</code>)`;
  return html`<p class="unavailable" role="note"><code>${excerpt.id}</code> — ${why}${code}.</p>`;
}
