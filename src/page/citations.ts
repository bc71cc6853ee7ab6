import type { Citation, Claim, Fact } from '../schemas/index.ts';
import type { PageContext } from './context.ts';
import { excerptBlock } from './evidence.ts';
import { type Html, html, link } from './html.ts';
import { linesText } from './wording.ts';

/** Shown of a quote or a fact value in a one-line summary; the excerpt below has the rest. */
const SUMMARY_CHARS = 160;

/** A claim and, under it, what it rests on; an uncited claim says so. */
export async function claimBlock(ctx: PageContext, claim: Claim): Promise<Html> {
  return html`<p class="claim">${claim.text}</p>${await citationList(ctx, claim.cites, claim.text)}`;
}

/** `said`: the text the citations support; a signal whose detail repeats it is named without it. */
export async function citationList(ctx: PageContext, cites: readonly Citation[], said = ''): Promise<Html> {
  if (cites.length === 0) return html`<p class="cites-none">No citation.</p>`;
  const items = await Promise.all(cites.map((c) => citation(ctx, c, said)));
  return html`<ul class="cites" aria-label="Cited">${items.map((i) => html`<li>${i}</li>`)}</ul>`;
}

async function citation(ctx: PageContext, cite: Citation, said: string): Promise<Html> {
  switch (cite.kind) {
    case 'evidence': {
      const excerpt = await ctx.evidence.read(cite.id, cite.lines);
      const quote = cite.quote === undefined ? '' : html` — <q>${clip(cite.quote.trim())}</q>`;
      const where = cite.lines === undefined ? '' : html` ${linesText(cite.lines)}`;
      return html`<details class="ev"><summary>${tag('evidence')}<code>${cite.id}</code>${where}${quote}</summary>${excerptBlock(excerpt, cite.lines)}</details>`;
    }
    case 'fact': {
      const fact = ctx.issues.get(cite.issue_id)?.facts[cite.index];
      if (fact === undefined) {
        return html`${tag('fact')}<span class="unavailable">fact ${cite.index} of issue <code>${cite.issue_id}</code> not in the facts</span>`;
      }
      return factItem(ctx, fact);
    }
    case 'code':
    case 'diff': {
      const label = `${cite.file}${cite.lines === undefined ? '' : `:${rangeText(cite.lines)}`}`;
      const href = ctx.gerrit.file(cite.file, cite.lines?.start ?? null);
      return html`${tag(cite.kind)}${link(href, html`<code>${label}</code>`)}`;
    }
    case 'signal': {
      const detail = cite.detail.trim() === said.trim() ? '' : html`: ${cite.detail}`;
      return html`${tag('signal')}<span class="signal-name">${cite.name}</span>${detail}`;
    }
  }
}

/** A fact of the report; one kept in the evidence store opens to its text. */
export async function factItem(ctx: PageContext, fact: Fact): Promise<Html> {
  const name = fact.name === undefined ? '' : html` <span class="muted">(${fact.name})</span>`;
  const head = html`${tag(fact.type)}${name} <span class="fact-value">${clip(fact.value)}</span>`;
  if (fact.evidence === undefined) return head;
  const excerpt = await ctx.evidence.read(fact.evidence);
  return html`<details class="ev"><summary>${head}</summary>${excerptBlock(excerpt)}</details>`;
}

function tag(kind: string): Html {
  return html`<span class="tag tag-${kind}">${kind.replace(/_/g, ' ')}</span> `;
}

function rangeText(lines: { start: number; end: number }): string {
  return lines.start === lines.end ? `${lines.start}` : `${lines.start}-${lines.end}`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= SUMMARY_CHARS ? flat : `${flat.slice(0, SUMMARY_CHARS - 1)}…`;
}
