import type { DiagnosisRun, FactsDocument, FailureDiagnosis, Issue, Verdict } from '../schemas/index.ts';
import type { CodeReader, PageContext } from './context.ts';
import { EvidenceView, type FragmentReader } from './evidence.ts';
import { duration, failureAnchor, failureSection, verdictBadge } from './failure.ts';
import { evidenceForm } from './form.ts';
import { gerritLinks } from './gerrit-links.ts';
import { externalUrl, type Html, html, link, ownUrl, trusted } from './html.ts';
import { STYLES } from './styles.ts';
import { CATEGORY, count, LEVEL, plural, VERDICT } from './wording.ts';

export interface RunPageInput {
  run: DiagnosisRun;
  /** The run's facts (with the locator's candidates): test summaries, facts, code excerpts. */
  facts: FactsDocument;
  /** Evidence read by bounded fragment only (`EvidenceStore` fits). */
  evidence: FragmentReader;
  /** The Gerrit the run's change lives on: links to the change and to file lines. */
  gerrit?: { baseUrl: string };
  links: {
    /** This page's own URL (absolute, or a root-relative path). */
    self: string;
    /** Where the QA form posts (`POST /runs/:id/evidence`). */
    evidenceForm: string;
  };
  /** Code at the run's revision, for the place's excerpt when the locator's excerpt does not cover it. */
  code?: CodeReader;
}

const VERDICT_ORDER: readonly Verdict[] = [
  'caused_by_change',
  'need_evidence',
  'environment',
  'flaky',
  'pre_existing',
];

/**
 * The report page of one run, as one self-contained HTML document: no script, no external
 * resource, every outside text escaped. Readable without JavaScript and in print.
 */
export async function renderRunPage(input: RunPageInput): Promise<string> {
  const { run, facts } = input;
  const ctx: PageContext = {
    run,
    facts,
    issues: new Map<string, Issue>(facts.issues.map((i) => [i.id, i])),
    gerrit: gerritLinks(run, input.gerrit),
    evidence: new EvidenceView(input.evidence),
    code: input.code ?? null,
  };
  // One failure at a time: the evidence budget is spent in reading order.
  const sections: Html[] = [];
  for (const [i, failure] of run.failures.entries()) sections.push(await failureSection(ctx, failure, i));
  const self = ownUrl(input.links.self);
  const title = pageTitle(run);
  const body = html`<a class="skip" href="#main">Skip to the diagnosis</a>
${top(ctx)}
<main id="main" class="wrap">
${overview(ctx)}
${sections}
<section class="card qa-card" id="add-evidence" aria-labelledby="add-evidence-title">
<h2 id="add-evidence-title">Add evidence</h2>
${evidenceForm(run, ownUrl(input.links.evidenceForm))}
</section>
</main>
<footer class="wrap">Run <code>${run.run_id}</code> · diagnosed ${when(run.created_at)}${self === null ? '' : html` · ${link(self, 'permalink')}`}</footer>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
${html`<title>${title}</title>`}
${self === null || !/^https?:/.test(self) ? '' : html`<link rel="canonical" href="${self}">`}
${html`<style>${trusted(STYLES)}</style>`}
</head>
<body>
${body}
</body>
</html>
`;
}

/** A timestamp as `2026-09-17 10:00 UTC`, with the exact value for machines. */
function when(iso: string): Html {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return html`${iso}`;
  const shown = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${at.toISOString()}">${shown}</time>`;
}

function pageTitle(run: DiagnosisRun): string {
  const { project, number, patchset } = run.change;
  const where = [
    project,
    number === null ? null : `change ${number}`,
    patchset === null ? null : `patchset ${patchset}`,
  ]
    .filter((s): s is string => s !== null)
    .join(' · ');
  return `CI failure diagnosis${where === '' ? '' : ` — ${where}`}`;
}

function top(ctx: PageContext): Html {
  const { run } = ctx;
  const { project, number, patchset, revision } = run.change;
  const heading = [
    project === null ? html`Local run` : html`${project}`,
    number === null ? '' : html` <span class="sep">·</span> change ${number}`,
    patchset === null ? '' : html` <span class="sep">·</span> patchset ${patchset}`,
  ];
  const usage = totalUsage(run.failures);
  const engine =
    run.engine.name === 'model'
      ? html`model <strong>${run.engine.model ?? 'unknown'}</strong>`
      : html`<strong>built-in rules engine</strong>`;
  const note = run.engine.note === null ? '' : html` <span class="muted">(${run.engine.note})</span>`;
  const tally = VERDICT_ORDER.flatMap((v) => {
    const n = run.failures.filter((f) => f.verdict === v).length;
    return n === 0 ? [] : [html`<span class="badge v-${v}">${n} ${VERDICT[v].toLowerCase()}</span>`];
  });
  const links = [
    ctx.gerrit.change === null
      ? ''
      : html`<a class="button-link" href="${ctx.gerrit.change}">Change ${number} on Gerrit</a>`,
    externalUrl(run.report_url) === null
      ? ''
      : html`<a class="button-link" href="${externalUrl(run.report_url) ?? ''}">CI report</a>`,
    html`<a class="button-link" href="#add-evidence">Add evidence</a>`,
  ];
  return html`<header class="top"><div class="wrap">
<p class="eyebrow">CI failure diagnosis</p>
<h1>${heading}</h1>
<ul class="meta">
<li>Revision <strong><code title="${revision}">${revision.slice(0, 12)}</code></strong></li>
<li>Diagnosed ${when(run.created_at)}</li>
<li>${plural(run.failures.length, 'failure')}</li>
<li>Engine: ${engine}${note}</li>
<li>Tokens: <strong>${count(usage.input + usage.output)}</strong>${usage.input + usage.output === 0 ? '' : html` <span class="muted">(${count(usage.input)} in, ${count(usage.output)} out${usage.cacheRead > 0 ? `, ${count(usage.cacheRead)} cache read` : ''})</span>`}</li>
${usage.toolCalls > 0 ? html`<li>Tool calls: <strong>${count(usage.toolCalls)}</strong></li>` : ''}
${usage.latencyMs > 0 ? html`<li>Model time: <strong>${duration(usage.latencyMs)}</strong></li>` : ''}
</ul>
${tally.length === 0 ? '' : html`<p class="tally" aria-label="Verdicts">${tally}</p>`}
<p class="links">${links}</p>
</div></header>`;
}

function overview(ctx: PageContext): Html {
  const { run } = ctx;
  if (run.failures.length === 0) {
    return html`<section class="card"><h2>No failures</h2><p>This run has no failing test to diagnose.</p></section>`;
  }
  const rows = run.failures.map((f, i) => {
    const where =
      f.place.file === null
        ? html`<span class="level level-need_evidence">${LEVEL.need_evidence}</span>`
        : html`<span class="level level-${f.place.level}">${LEVEL[f.place.level]}</span> <code>${placeShort(f)}</code>`;
    return html`<tr>
<td class="n">${i + 1}</td>
<td class="test"><a href="#${failureAnchor(i)}">${f.test}</a><span class="where">${where}</span></td>
<td class="verdict">${verdictBadge(f.verdict)}<span class="category-small">${CATEGORY[f.category]}</span></td>
</tr>`;
  });
  return html`<section class="card" aria-labelledby="overview-title">
<h2 id="overview-title">Failures</h2>
<div class="table-wrap"><table class="overview">
<thead><tr><th scope="col" class="n">#</th><th scope="col">Test and place</th><th scope="col">Verdict and category</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
</section>`;
}

function placeShort(f: FailureDiagnosis): string {
  const { place } = f;
  const fn = place.function === null ? '' : ` ${place.function}`;
  const lines =
    place.level === 'line' && place.lines !== null
      ? `:${place.lines.start}${place.lines.end === place.lines.start ? '' : `-${place.lines.end}`}`
      : '';
  return `${place.file ?? ''}${lines}${fn}`;
}

function totalUsage(failures: readonly FailureDiagnosis[]) {
  const total = { input: 0, output: 0, cacheRead: 0, toolCalls: 0, latencyMs: 0 };
  for (const f of failures) {
    if (f.usage === undefined) continue;
    total.input += f.usage.input_tokens;
    total.output += f.usage.output_tokens;
    total.cacheRead += f.usage.cache_read_input_tokens;
    total.toolCalls += f.usage.tool_calls;
    total.latencyMs += f.usage.latency_ms;
  }
  return total;
}
