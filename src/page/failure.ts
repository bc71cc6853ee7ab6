import type { ChangeAdvice, FailureDiagnosis, Triage, Usage, VerifiedFix } from '../schemas/index.ts';
import { citationList, claimBlock, factItem } from './citations.ts';
import type { PageContext } from './context.ts';
import { excerptBlock } from './evidence.ts';
import { externalUrl, type Html, html, link } from './html.ts';
import { framesBlock, placeBlock } from './place.ts';
import { CATEGORY, count, plural, SEVERITY, SIGNAL, TARGET, VERDICT, VERDICT_MEANS, WHO } from './wording.ts';

/** The anchor of the n-th failure (1-based): ids from reports are not trusted as ids. */
export function failureAnchor(index: number): string {
  return `failure-${index + 1}`;
}

export function verdictBadge(verdict: FailureDiagnosis['verdict']): Html {
  return html`<span class="badge v-${verdict}">${VERDICT[verdict]}</span>`;
}

/** One failure, in the order a reader asks: what, where, why, what to do, what is missing, how sure. */
export async function failureSection(
  ctx: PageContext,
  failure: FailureDiagnosis,
  index: number,
): Promise<Html> {
  const anchor = failureAnchor(index);
  const issue = ctx.issues.get(failure.issue_id);
  const reportPage = externalUrl(failure.report_url ?? issue?.url ?? null);
  const parts: Html[] = [
    html`<header class="failure-head">
<h2 id="${anchor}-title"><span class="num">${index + 1}.</span> <span class="test">${failure.test}</span></h2>
<p class="verdict-line">${verdictBadge(failure.verdict)} <span class="category">${CATEGORY[failure.category]}</span>${failure.check?.degraded ? html` <span class="badge degraded" title="The checker lowered the place, dropped claims or fell back to needs-evidence">degraded by the checker</span>` : ''}</p>
<p class="means">${VERDICT_MEANS[failure.verdict]}</p>
${issue === undefined ? '' : html`<p class="summary-text">${issue.summary}</p>`}
${reportLink(reportPage, failure.report_url ?? issue?.url ?? null)}
</header>`,
    section(anchor, 'place', 'Where', await placeBlock(ctx, failure, anchor)),
    section(anchor, 'why', 'Why: the causal chain', await whyBlock(ctx, failure)),
  ];
  if (failure.change !== null)
    parts.push(section(anchor, 'change', 'What to change', await changeBlock(ctx, failure.change)));
  if (failure.fix !== null)
    parts.push(section(anchor, 'fix', 'Verified fix', await fixBlock(ctx, failure.fix)));
  if (failure.verify.length > 0)
    parts.push(section(anchor, 'verify', 'How to verify', verifyBlock(failure.verify)));
  if (failure.missing_evidence.length > 0)
    parts.push(section(anchor, 'missing', 'Missing evidence', missingBlock(failure)));
  if (failure.alternatives.length > 0)
    parts.push(
      section(
        anchor,
        'alternatives',
        'Other explanations still standing',
        await alternativesBlock(ctx, failure),
      ),
    );
  if (failure.triage !== undefined)
    parts.push(
      section(anchor, 'triage', 'Deterministic signals', await triageBlock(ctx, failure, failure.triage)),
    );
  if (issue !== undefined)
    parts.push(section(anchor, 'report', 'What the report shows', await reportBlock(ctx, failure, anchor)));
  parts.push(
    html`<div class="part part-meta">${subsection(anchor, 'check', "The checker's findings", checkBlock(failure))}${failure.usage === undefined ? '' : subsection(anchor, 'usage', 'Usage', usageBlock(failure.usage))}</div>`,
  );
  return html`<section class="failure" id="${anchor}" aria-labelledby="${anchor}-title">${parts}</section>`;
}

/** The report's own page for this test: a link when it is a web page, the address otherwise. */
function reportLink(url: string | null, given: string | null): Html {
  if (url !== null) return html`<p class="small"><a href="${url}">Open this test in the CI report</a></p>`;
  if (given === null || given === '') return html``;
  return html`<p class="small muted">The report's page for this test: <code>${given}</code> (not a web address, so not linked).</p>`;
}

function subsection(anchor: string, key: string, title: string, body: Html): Html {
  return html`<section aria-labelledby="${anchor}-${key}"><h3 id="${anchor}-${key}">${title}</h3>${body}</section>`;
}

function section(anchor: string, key: string, title: string, body: Html): Html {
  return html`<section class="part part-${key}" aria-labelledby="${anchor}-${key}"><h3 id="${anchor}-${key}">${title}</h3>${body}</section>`;
}

async function whyBlock(ctx: PageContext, failure: FailureDiagnosis): Promise<Html> {
  if (failure.why.length === 0) return html`<p class="muted">No causal chain was established.</p>`;
  const claims = await Promise.all(failure.why.map((c) => claimBlock(ctx, c)));
  const last = claims.length - 1;
  return html`<ol class="chain">${claims.map((c, i) => html`<li${i === last ? html` class="earliest"` : ''}>${c}${i === last && last > 0 ? html`<p class="small muted">The earliest deviation found.</p>` : ''}</li>`)}</ol>`;
}

async function changeBlock(ctx: PageContext, change: ChangeAdvice): Promise<Html> {
  const where =
    change.file === null
      ? ''
      : html` in ${link(ctx.gerrit.file(change.file), html`<code>${change.file}</code>`)}${change.function === null ? '' : html`, <code>${change.function}</code>`}`;
  const rationale =
    change.rationale === null ? '' : html`<h4>Why there</h4>${await claimBlock(ctx, change.rationale)}`;
  const impact =
    change.impact.length === 0
      ? ''
      : html`<h4>What else it touches</h4><ul>${change.impact.map((i) => html`<li>${i}</li>`)}</ul>`;
  return html`<p class="target"><span class="target-chip t-${change.target}">${TARGET[change.target]}</span>${where}</p>
<h4>How</h4>${await claimBlock(ctx, change.advice)}${rationale}${impact}`;
}

async function fixBlock(ctx: PageContext, fix: VerifiedFix): Promise<Html> {
  const edits = fix.replacements.map((r) => {
    const { range } = r;
    const at = `${r.path}:${range.start_line}:${range.start_character}–${range.end_line}:${range.end_character}`;
    return html`<li><p>${link(ctx.gerrit.file(r.path, range.start_line), html`<code>${at}</code>`)} becomes:</p><pre class="replacement"><code>${r.replacement}</code></pre></li>`;
  });
  const output = await ctx.evidence.read(fix.verification.evidence);
  return html`<p>${fix.description}</p><ul class="edits">${edits}</ul>
<p>Verified: <code>${fix.verification.command}</code> <span class="badge ok">${fix.verification.outcome}</span></p>
<details class="ev"><summary>Output of the verifying run</summary>${excerptBlock(output)}</details>`;
}

function verifyBlock(commands: readonly string[]): Html {
  return html`<ul class="commands">${commands.map((c) => html`<li><pre><code>${c}</code></pre></li>`)}</ul>`;
}

function missingBlock(failure: FailureDiagnosis): Html {
  const items = failure.missing_evidence.map(
    (m) => html`<li><span class="who">${WHO[m.who]}</span> ${m.what}</li>`,
  );
  return html`<ul class="missing">${items}</ul><p class="small"><a href="#add-evidence">Add evidence</a> to have this failure diagnosed again.</p>`;
}

async function alternativesBlock(ctx: PageContext, failure: FailureDiagnosis): Promise<Html> {
  const claims = await Promise.all(failure.alternatives.map((c) => claimBlock(ctx, c)));
  return html`<ul class="alternatives">${claims.map((c) => html`<li>${c}</li>`)}</ul>`;
}

async function triageBlock(ctx: PageContext, failure: FailureDiagnosis, triage: Triage): Promise<Html> {
  const differs = triage.verdict !== failure.verdict || triage.category !== failure.category;
  const start = html`<p>The signals alone said ${verdictBadge(triage.verdict)} <span class="category">${CATEGORY[triage.category]}</span>${differs ? html` — <strong>the diagnosis differs</strong>` : ''}; channel: <strong>${triage.channel}</strong>; signature <code>${triage.signature}</code>.</p>`;
  if (triage.signals.length === 0) return html`${start}<p class="muted">No signal fired.</p>`;
  const signals = await Promise.all(
    triage.signals.map(
      async (s) =>
        html`<li><span class="tag tag-signal">${SIGNAL[s.kind]}</span> ${s.detail}<details class="signal-cites"><summary>${plural(s.cites.length, 'citation')}</summary>${await citationList(ctx, s.cites, s.detail)}</details></li>`,
    ),
  );
  return html`${start}<ul class="signals">${signals}</ul>`;
}

async function reportBlock(ctx: PageContext, failure: FailureDiagnosis, anchor: string): Promise<Html> {
  const issue = ctx.issues.get(failure.issue_id);
  if (issue === undefined) return html``;
  const facts = await Promise.all(
    issue.facts.filter((f) => f.type !== 'status').map(async (f) => html`<li>${await factItem(ctx, f)}</li>`),
  );
  const warnings =
    issue.warnings.length === 0
      ? ''
      : html`<p class="small">Scraper warnings:</p><ul class="warnings">${issue.warnings.map((w) => html`<li>${w}</li>`)}</ul>`;
  const frames = framesBlock(ctx, failure, anchor);
  return html`<ul class="facts">${facts}</ul>${warnings}${frames.value === '' ? '' : html`<h4>Frames the report gave, checked at the revision</h4>${frames}`}`;
}

function checkBlock(failure: FailureDiagnosis): Html {
  const check = failure.check;
  if (check === undefined) return html`<p class="muted">This diagnosis was not checked.</p>`;
  const rounds =
    check.repair_rounds === 0 ? '' : html` ${plural(check.repair_rounds, 'repair round')} with the engine.`;
  if (check.findings.length === 0) {
    return html`<p><span class="badge ok">no findings</span> Every claim is cited and every cited place exists.${rounds}</p>`;
  }
  const rows = check.findings.map(
    (f) =>
      html`<tr><td><span class="sev sev-${f.severity}">${SEVERITY[f.severity]}</span></td><td><code>${f.code}</code></td><td><code>${f.path}</code></td><td>${f.message}</td></tr>`,
  );
  return html`<p>${plural(check.findings.length, 'finding')}.${rounds}</p><div class="table-wrap"><table class="findings"><thead><tr><th scope="col">Severity</th><th scope="col">Code</th><th scope="col">Path</th><th scope="col">Message</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function usageBlock(usage: Usage): Html {
  const tokens = usage.input_tokens + usage.output_tokens;
  if (tokens === 0 && usage.tool_calls === 0) {
    return html`<p>No model calls: <strong>0</strong> tokens, <strong>0</strong> tool calls.</p>`;
  }
  const items: Array<[string, string]> = [
    ['Input tokens', count(usage.input_tokens)],
    ['Output tokens', count(usage.output_tokens)],
    ['Cache read', count(usage.cache_read_input_tokens)],
    ['Cache write', count(usage.cache_creation_input_tokens)],
    ['Tool calls', count(usage.tool_calls)],
    ['Latency', duration(usage.latency_ms)],
  ];
  return html`<dl class="stats">${items.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
