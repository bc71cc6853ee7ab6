import type { DiagnosisRun, FailureDiagnosis, MissingEvidence, Verdict } from '../schemas/index.ts';
import type { Placement } from './comments.ts';
import { clipBytes, type PublishLimits } from './limits.ts';
import { inlineCode, inlineText, link } from './markdown.ts';
import { markerLine } from './marker.ts';
import { changeText, placeText, verdictText, whyText } from './wording.ts';

export interface SummaryInput {
  run: DiagnosisRun;
  digest: string;
  placements: readonly Placement[];
  fixNotes: readonly string[];
  limits: PublishLimits;
}

const WHO: Record<MissingEvidence['who'], string> = {
  change_owner: 'change owner',
  qa: 'QA',
  ci_admin: 'CI admin',
  infra: 'infrastructure team',
  test_owner: 'test owner',
};

const SHORT_VERDICT: Record<Verdict, string> = {
  caused_by_change: 'caused by this change',
  pre_existing: 'pre-existing',
  flaky: 'flaky',
  environment: 'environment',
  need_evidence: 'undecided',
};

const PLACEMENT: Record<Placement, string> = {
  inline: 'inline comment on these lines',
  file: 'file comment',
  summary_only: 'no comment in the diff (place not in this patchset or not confirmed)',
  over_limit: 'comment left out (too many for one post; see the report page)',
};

/**
 * The one summary message of a run: a header counting verdicts, a short block per failure,
 * notes, and the marker line. It stays under the byte budget by spelling out the first
 * failures and counting the rest, which the report page has in full — never by posting nothing.
 */
export function renderSummary(input: SummaryInput): string {
  const { run, limits } = input;
  const head = header(run);
  const tail = [...notes(input), markerLine(run.run_id, input.digest)].join('\n\n');
  const shown = Math.min(run.failures.length, limits.maxFailuresInSummary);
  const reserve = Buffer.byteLength(
    `${head}\n\n${tail}\n\n${moreLine(run, run.failures.length)}\n\n`,
    'utf8',
  );
  let budget = limits.maxMessageBytes - reserve;
  const perBlock = Math.max(800, Math.floor(budget / Math.max(1, shown)));
  const blocks: string[] = [];
  for (const [index, failure] of run.failures.slice(0, shown).entries()) {
    const block = clipBytes(
      failureBlock(run, failure, index, input.placements[index]),
      Math.min(perBlock, budget),
    );
    const size = Buffer.byteLength(block, 'utf8') + 2;
    if (blocks.length > 0 && size > budget) break;
    blocks.push(block);
    budget -= size;
  }
  const more = run.failures.length - blocks.length;
  return [head, ...blocks, ...(more > 0 ? [moreLine(run, more)] : []), tail].join('\n\n');
}

function header(run: DiagnosisRun): string {
  const n = run.failures.length;
  const counts = new Map<Verdict, number>();
  for (const f of run.failures) counts.set(f.verdict, (counts.get(f.verdict) ?? 0) + 1);
  const tally = [...counts].map(([verdict, count]) => `${count} ${SHORT_VERDICT[verdict]}`).join(', ');
  const patchset = run.change.patchset === null ? '' : ` · patchset ${run.change.patchset}`;
  const title = `**CI failure diagnosis**${patchset} · ${n === 1 ? '1 failure' : `${n} failures`}${n > 0 ? `: ${tally}` : ''}`;
  const links = [
    ...(run.page_url === null ? [] : [link('Report page', run.page_url)]),
    ...(run.report_url === null ? [] : [link('CI report', run.report_url)]),
  ];
  return links.length === 0 ? title : `${title}\n${links.join(' · ')}`;
}

function failureBlock(
  run: DiagnosisRun,
  failure: FailureDiagnosis,
  index: number,
  placement: Placement | undefined,
): string {
  const lines = [
    `**${index + 1}. ${inlineCode(failure.test)}** — ${verdictText(failure)}`,
    `- Where: ${placeText(failure.place)}`,
    `- Why: ${whyText(failure)}`,
  ];
  if (failure.change !== null) lines.push(`- Change: ${changeText(failure.change)}`);
  if (failure.fix !== null)
    lines.push(`- Fix: verified edit, ${inlineCode(failure.fix.verification.command)} passed`);
  if (failure.verify.length > 0)
    lines.push(`- Verify: ${failure.verify.map((v) => inlineCode(v)).join(', ')}`);
  if (failure.missing_evidence.length > 0) {
    const asks = failure.missing_evidence.map((m) => `${inlineText(m.what, 200)} (${WHO[m.who]})`);
    lines.push(`- Missing evidence: ${asks.join('; ')}`);
  }
  if (failure.alternatives.length > 0) {
    lines.push(`- Also possible: ${failure.alternatives.map((a) => inlineText(a.text, 200)).join('; ')}`);
  }
  if (placement !== undefined) lines.push(`- In the diff: ${PLACEMENT[placement]}`);
  const page = sameOriginUrl(failure.report_url, run.report_url);
  if (page !== null) lines.push(`- ${link("The report's page for this test", page)}`);
  return lines.join('\n');
}

function notes(input: SummaryInput): string[] {
  const engine = input.run.engine;
  const by =
    engine.name === 'model'
      ? `Diagnosed with the model ${inlineCode(engine.model ?? 'unknown')}`
      : 'Diagnosed by the built-in rules engine';
  const engineLine = `${by}${engine.note === null ? '' : ` (${inlineText(engine.note, 200)})`}; every claim is checked against the report, the code at this revision and the diff.`;
  const fixLines = input.fixNotes.map((n) => `- ${inlineText(n, 300)}`);
  return fixLines.length === 0 ? [engineLine] : [engineLine, ['Fixes:', ...fixLines].join('\n')];
}

function moreLine(run: DiagnosisRun, more: number): string {
  const where = run.page_url === null ? 'the CI report' : link('the report page', run.page_url);
  return `…and ${more} more ${more === 1 ? 'failure' : 'failures'}: see ${where}.`;
}

/** A link taken from a report is only followed when it points into the same report site. */
function sameOriginUrl(url: string | null, reportUrl: string | null): string | null {
  if (url === null || reportUrl === null || !URL.canParse(url) || !URL.canParse(reportUrl)) return null;
  return new URL(url).origin === new URL(reportUrl).origin ? url : null;
}
