import type { FileDiff, Hunk } from '../git/index.ts';
import type {
  CheckFinding,
  Citation,
  DiagnosisDraft,
  FindingCode,
  LineRange,
  Triage,
} from '../schemas/index.ts';
import { claimsOf } from './claims.ts';
import { clip, error, warning } from './findings.ts';
import type { CheckInput } from './input.ts';
import { INSTRUCTION_CODE, instructionIn } from './instruction.ts';
import { overlaps, rangeOutside, showRange } from './lines.ts';
import { isBlankQuote, quoteIn } from './quote.ts';
import type { Sources } from './sources.ts';

/** One citation of the draft after checking: whether it holds, and the text it points at. */
export interface Resolution {
  path: string;
  citation: Citation;
  ok: boolean;
  /** The quote, the cited lines or the fact's value; null for diffs, signals and whole items. */
  text: string | null;
}

interface Problem {
  code: FindingCode;
  message: string;
}

type Outcome = { problem: Problem | null; text: string | null; notes?: string[] };

/** Cited lines longer than this are not scanned for instructions: a range that wide is a whole-log citation. */
const SCANNED_LINES = 50;

/**
 * Every claim must cite something, and every citation must resolve: the evidence item and its
 * lines exist and hold the quote verbatim; the fact exists; the code lines exist at the
 * revision; the diff lines are changed by this change; the signal was raised by the triage.
 */
export async function checkCitations(
  draft: DiagnosisDraft,
  sources: Sources,
  input: CheckInput,
): Promise<{ findings: CheckFinding[]; resolutions: Resolution[] }> {
  const findings: CheckFinding[] = [];
  const resolutions: Resolution[] = [];
  for (const { path, claim } of claimsOf(draft)) {
    if (claim.cites.length === 0)
      findings.push(error('uncited_claim', path, `"${clip(claim.text)}" cites nothing`));
    for (const [i, citation] of claim.cites.entries()) {
      const at = `${path}.cites.${i}`;
      const outcome = await resolve(citation, sources, input);
      const problem = outcome.problem ?? instructionProblem(outcome.text);
      if (problem !== null) findings.push(error(problem.code, at, problem.message));
      for (const note of outcome.notes ?? []) findings.push(warning('quote_not_in_evidence', at, note));
      resolutions.push({ path: at, citation, ok: problem === null, text: outcome.text });
    }
  }
  return { findings, resolutions };
}

function instructionProblem(text: string | null): Problem | null {
  const phrase = text === null ? null : instructionIn(text);
  if (phrase === null) return null;
  return {
    code: INSTRUCTION_CODE,
    message: `the cited text addresses the diagnoser ("${clip(phrase)}"): an instruction found in the material is not evidence`,
  };
}

function resolve(citation: Citation, sources: Sources, input: CheckInput): Promise<Outcome> | Outcome {
  switch (citation.kind) {
    case 'evidence':
      return resolveEvidence(citation, sources);
    case 'fact':
      return resolveFact(citation, input);
    case 'code':
      return resolveCode(citation, sources);
    case 'diff':
      return resolveDiff(citation, input.ctx.diff);
    case 'signal':
      return resolveSignal(citation, input.triage);
  }
}

async function resolveEvidence(
  citation: Extract<Citation, { kind: 'evidence' }>,
  sources: Sources,
): Promise<Outcome> {
  const lines = await sources.evidence(citation.id);
  if (lines === null)
    return fail('evidence_not_found', `evidence ${citation.id} is not in the evidence store`);
  const range = citation.lines;
  if (range !== undefined) {
    const outside = rangeOutside(range, lines.length);
    if (outside !== null) return fail('lines_out_of_range', `evidence ${citation.id}: ${outside}`);
  }
  const cited = range === undefined ? lines : lines.slice(range.start - 1, range.end);
  const where =
    range === undefined ? `evidence ${citation.id}` : `evidence ${citation.id} ${showRange(range)}`;
  const quote = citation.quote;
  if (quote === undefined || isBlankQuote(quote)) {
    const notes = quote === undefined ? [] : [`the quote is blank: ${where} is cited without one`];
    const text = range !== undefined && cited.length <= SCANNED_LINES ? cited.join('\n') : null;
    return { problem: null, text, notes };
  }
  if (!quoteIn(quote, cited)) return fail('quote_not_in_evidence', `"${clip(quote)}" is not in ${where}`);
  return { problem: null, text: quote };
}

function resolveFact(citation: Extract<Citation, { kind: 'fact' }>, input: CheckInput): Outcome {
  const issue =
    citation.issue_id === input.issue.id
      ? input.issue
      : input.ctx.facts.issues.find((i) => i.id === citation.issue_id);
  if (issue === undefined)
    return fail('fact_not_found', `there is no issue ${citation.issue_id} in the facts`);
  const fact = issue.facts[citation.index];
  if (fact === undefined)
    return fail(
      'fact_not_found',
      `issue ${issue.id} has ${issue.facts.length} facts, no fact ${citation.index}`,
    );
  return { problem: null, text: fact.value };
}

async function resolveCode(
  citation: Extract<Citation, { kind: 'code' }>,
  sources: Sources,
): Promise<Outcome> {
  const file = await sources.code(citation.file);
  if (file.kind === 'absent')
    return fail('file_not_at_revision', `${citation.file} does not exist at the revision`);
  if (file.kind === 'unreadable')
    return fail(
      'lines_out_of_range',
      `${citation.file} ${showRange(citation.lines)} cannot be checked: ${file.reason}`,
    );
  const outside = rangeOutside(citation.lines, file.lines.length);
  if (outside !== null) return fail('lines_out_of_range', `${citation.file}: ${outside}`);
  const cited = file.lines.slice(citation.lines.start - 1, citation.lines.end);
  return { problem: null, text: cited.length <= SCANNED_LINES ? cited.join('\n') : null };
}

function resolveDiff(citation: Extract<Citation, { kind: 'diff' }>, diff: readonly FileDiff[]): Outcome {
  const file = diff.find(
    (f) => f.newPath === citation.file || (f.newPath === null && f.oldPath === citation.file),
  );
  if (file === undefined) return fail('diff_not_in_change', `this change does not modify ${citation.file}`);
  const range = citation.lines;
  if (range === undefined || file.hunks.some((h) => overlaps(range, changedLines(h))))
    return { problem: null, text: null };
  return fail('diff_not_in_change', `this change does not modify ${citation.file} ${showRange(range)}`);
}

/**
 * The target-side lines a hunk touches. A pure deletion has no target lines: it sits between
 * `newStart` and the line after, so both neighbours count as touched.
 */
export function changedLines(hunk: Hunk): LineRange {
  if (hunk.newLines > 0) return { start: hunk.newStart, end: hunk.newStart + hunk.newLines - 1 };
  return { start: Math.max(hunk.newStart, 1), end: hunk.newStart + 1 };
}

/**
 * A signal citation names a signal the triage raised, or one of the signals' own citations
 * (history is cited as `signature_history`, with the detail the triage wrote).
 */
function resolveSignal(citation: Extract<Citation, { kind: 'signal' }>, triage: Triage): Outcome {
  if (triage.signals.some((s) => s.kind === citation.name)) return { problem: null, text: null };
  const inner = triage.signals.flatMap((s) => s.cites);
  if (inner.some((c) => c.kind === 'signal' && c.name === citation.name && c.detail === citation.detail)) {
    return { problem: null, text: null };
  }
  return fail('signal_not_found', `the triage raised no ${citation.name} signal`);
}

function fail(code: FindingCode, message: string): Outcome {
  return { problem: { code, message }, text: null };
}
