import { type Html, html } from './html.ts';

/** How a line of an excerpt is marked: the diagnosed place, a line this change touched, a cited line. */
export type LineMark = 'place' | 'changed' | 'cited';

export interface CodeTableOptions {
  /** Number of the first line. */
  first: number;
  /** Link target of a line number (Gerrit's file view), or null for plain numbers. */
  href?: (line: number) => string | null;
  marks?: (line: number) => readonly LineMark[];
  /** Accessible name of the table, e.g. "pricing/price.py lines 10–16". */
  label: string;
}

const MARK_TITLE: Record<LineMark, string> = {
  place: 'the diagnosed place',
  changed: 'changed by this change',
  cited: 'cited',
};

/**
 * Lines with their numbers, as a table so the numbers stay out of a copy of the code and line
 * up at any width. Marked lines carry a class for the colour and a title for everyone else.
 */
export function codeTable(lines: readonly Html[], options: CodeTableOptions): Html {
  const rows = lines.map((line, i) => {
    const n = options.first + i;
    const marks = options.marks?.(n) ?? [];
    const href = options.href?.(n) ?? null;
    const number =
      href === null ? html`${n}` : html`<a href="${href}" title="Open line ${n} in Gerrit">${n}</a>`;
    const cls = marks.length === 0 ? '' : html` class="${marks.map((m) => `m-${m}`).join(' ')}"`;
    const title = marks.length === 0 ? '' : html` title="${marks.map((m) => MARK_TITLE[m]).join(', ')}"`;
    return html`<tr${cls}${title}><td class="ln">${number}</td><td class="src">${line}</td></tr>`;
  });
  return html`<div class="code" role="region" aria-label="${options.label}" tabindex="0"><table><tbody>${rows}</tbody></table></div>`;
}

export function inRanges(line: number, ranges: readonly { start: number; end: number }[]): boolean {
  return ranges.some((r) => r.start <= line && line <= r.end);
}
