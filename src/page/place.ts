import { isDiagnosisError } from '../errors/index.ts';
import type { FailureDiagnosis, LineRange, VerifiedLocation } from '../schemas/index.ts';
import { codeTable, inRanges, type LineMark } from './code.ts';
import type { CodeReader, PageContext } from './context.ts';
import { highlightLines, languageOf } from './highlight.ts';
import { type Html, html, link } from './html.ts';
import { LEVEL, LEVEL_MEANS, linesText } from './wording.ts';

/** Bounds of a code excerpt read from the revision: the place and a little around it. */
export const EXCERPT_LIMITS = { context: 3, maxLines: 80 };

interface Excerpt {
  file: string;
  lines: LineRange;
  text: string;
  truncated: boolean;
  /** Where the text came from, for the caption. */
  source: 'revision' | 'locator';
}

/** The diagnosed place: how sure, where, and its code with the place and the change's lines marked. */
export async function placeBlock(ctx: PageContext, failure: FailureDiagnosis, anchor: string): Promise<Html> {
  const { place } = failure;
  const level = html`<span class="level level-${place.level}" title="${LEVEL_MEANS[place.level]}">${LEVEL[place.level]}</span>`;
  if (place.level === 'need_evidence' || place.file === null) {
    return html`<p>${level} ${LEVEL_MEANS.need_evidence} No comment is placed in the diff.</p>`;
  }
  const at = place.level === 'line' || place.level === 'function' ? (place.lines?.start ?? null) : null;
  const fileLink = link(ctx.gerrit.file(place.file, at), html`<code>${place.file}</code>`);
  const fn = place.function === null ? '' : html` in <code>${place.function}</code>`;
  const lines = place.level === 'line' && place.lines !== null ? html`, ${linesText(place.lines)}` : '';
  const head = html`<p class="place">${level} ${fileLink}${fn}${lines}</p><p class="muted small">${LEVEL_MEANS[place.level]}</p>`;
  const excerpt = await placeExcerpt(ctx, failure);
  if (excerpt === null) {
    const why =
      place.lines !== null
        ? 'No excerpt of these lines is available.'
        : place.level === 'function'
          ? 'Only the function is confirmed, not its lines, so none are shown.'
          : 'Only the file is confirmed, so no lines are shown.';
    return html`${head}<p class="muted">${why}</p>`;
  }
  const marked = place.level === 'line' && place.file === excerpt.file ? place.lines : null;
  return html`${head}${excerptFigure(ctx, failure, excerpt, `${anchor}-place`, marked)}`;
}

/** The locator's candidates (the frames the report gave, re-anchored), beside the place. */
export function framesBlock(ctx: PageContext, failure: FailureDiagnosis, anchor: string): Html {
  const candidates = ctx.issues.get(failure.issue_id)?.candidates ?? [];
  if (candidates.length === 0) return html``;
  const items = candidates.map((c, i) => frameItem(ctx, failure, c, `${anchor}-frame-${i + 1}`));
  return html`<ol class="frames">${items}</ol>`;
}

function frameItem(ctx: PageContext, failure: FailureDiagnosis, c: VerifiedLocation, anchor: string): Html {
  const reported = `${c.reported.file}${c.reported.line === null ? '' : `:${c.reported.line}`}`;
  const at =
    c.file === null
      ? null
      : link(ctx.gerrit.file(c.file, c.lines?.start ?? null), html`<code>${c.file}</code>`);
  const fn = c.function === null ? '' : html` in <code>${c.function.name}</code>`;
  const lines = c.level === 'line' && c.lines !== null ? html`, ${linesText(c.lines)}` : '';
  const where =
    at === null ? html`<span class="muted">not found at this revision</span>` : html`${at}${fn}${lines}`;
  const alternatives =
    c.alternatives.length === 0
      ? ''
      : html`<p class="small">Other files that could be meant: ${c.alternatives.map((a, i) => html`${i > 0 ? ', ' : ''}<code>${a.file}</code>`)}</p>`;
  const excerpt =
    c.candidate === null
      ? ''
      : excerptFigure(
          ctx,
          failure,
          { ...c.candidate, source: 'locator' },
          anchor,
          c.level === 'line' ? c.lines : null,
        );
  return html`<li><p><span class="tag">${c.reported.role}</span> reported as <code>${reported}</code> → <span class="level level-${c.level}">${LEVEL[c.level]}</span> ${where}</p>
<details class="reasons"><summary>Why this confidence</summary><ol>${c.reasons.map((r) => html`<li>${r}</li>`)}</ol></details>${alternatives}${excerpt}</li>`;
}

async function placeExcerpt(ctx: PageContext, failure: FailureDiagnosis): Promise<Excerpt | null> {
  const { place } = failure;
  if (place.file === null) return null;
  if (ctx.code !== null && place.lines !== null) {
    const text = await readCode(ctx.code, place.file);
    if (text !== null) return cut(place.file, text, place.lines);
  }
  const candidates = (ctx.issues.get(failure.issue_id)?.candidates ?? []).flatMap((c) =>
    c.candidate !== null && c.candidate.file === place.file ? [c.candidate] : [],
  );
  const wanted = place.lines;
  const covering =
    wanted === null
      ? candidates[0]
      : (candidates.find((c) => c.lines.start <= wanted.start && wanted.end <= c.lines.end) ??
        candidates.find((c) => c.lines.start <= wanted.end && wanted.start <= c.lines.end));
  return covering === undefined ? null : { ...covering, source: 'locator' };
}

/** The file's text, or null when it cannot be read (absent, refused, too large): the locator's excerpt stands in. */
async function readCode(code: CodeReader, file: string): Promise<string | null> {
  try {
    return await code.read(file);
  } catch (err: unknown) {
    if (isDiagnosisError(err)) return null;
    throw err;
  }
}

function cut(file: string, text: string, around: LineRange): Excerpt {
  const all = text.split(/\r?\n/);
  if (all.at(-1) === '') all.pop();
  const start = Math.max(1, around.start - EXCERPT_LIMITS.context);
  const wanted = Math.min(all.length, around.end + EXCERPT_LIMITS.context);
  const end = Math.min(wanted, start + EXCERPT_LIMITS.maxLines - 1);
  return {
    file,
    lines: { start, end },
    text: all.slice(start - 1, end).join('\n'),
    truncated: end < wanted,
    source: 'revision',
  };
}

function excerptFigure(
  ctx: PageContext,
  failure: FailureDiagnosis,
  excerpt: Excerpt,
  anchor: string,
  /** Lines to mark as the place: a gated `line` place only. */
  marked: LineRange | null,
): Html {
  const all = highlightLines(excerpt.text, languageOf(excerpt.file));
  const shown = all.slice(0, EXCERPT_LIMITS.maxLines);
  const changed = changedLines(ctx, failure, excerpt.file);
  const marks = (n: number): LineMark[] => [
    ...(marked !== null && inRanges(n, [marked]) ? (['place'] as const) : []),
    ...(inRanges(n, changed) ? (['changed'] as const) : []),
  ];
  const last = excerpt.lines.start + shown.length - 1;
  const table = codeTable(shown, {
    first: excerpt.lines.start,
    href: (n) => ctx.gerrit.file(excerpt.file, n),
    marks,
    label: `${excerpt.file} ${linesText({ start: excerpt.lines.start, end: last })}`,
  });
  const more = excerpt.truncated || shown.length < all.length ? ' (excerpt cut)' : '';
  const from = excerpt.source === 'revision' ? 'at the revision' : 'as the locator read it at the revision';
  const legend = changed.some((r) => r.start <= last && excerpt.lines.start <= r.end)
    ? html` <span class="legend"><span class="swatch m-changed"></span> changed by this change</span>`
    : '';
  return html`<figure id="${anchor}" class="excerpt"><figcaption><code>${excerpt.file}</code> ${linesText({ start: excerpt.lines.start, end: last })}, ${from}${more}${legend}</figcaption>${table}</figure>`;
}

/** Lines of `file` this change touched: from the locator's diff impact and the diagnosis' diff citations. */
function changedLines(ctx: PageContext, failure: FailureDiagnosis, file: string): LineRange[] {
  const fromLocator = (ctx.issues.get(failure.issue_id)?.candidates ?? []).flatMap((c) =>
    c.file === file ? c.diff_impact.changed_lines : [],
  );
  const claims = [...failure.why, ...(failure.change === null ? [] : [failure.change.advice])];
  const fromCites = claims.flatMap((claim) =>
    claim.cites.flatMap((c) =>
      c.kind === 'diff' && c.file === file && c.lines !== undefined ? [c.lines] : [],
    ),
  );
  return [...fromLocator, ...fromCites];
}
