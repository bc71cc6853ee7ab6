import { z } from 'zod';
import type { DiagnosisContext } from '../context/index.ts';
import type { CandidateBlock, Issue, VerifiedLocation } from '../schemas/index.ts';
import { LIMITS } from './limits.ts';
import { clipLine, numberLines, splitLines, takeWithin } from './text.ts';
import { defineTool, type JsonObject, toolRefusal } from './tool.ts';

const Input = z.strictObject({
  issue_id: z.string().min(1).describe('The issue id from the facts JSON, e.g. "001".'),
});

/** Character budgets of the three lists, chosen so the whole result stays under LIMITS.maxResultChars. */
const BUDGET = { facts: 5_000, locations: 2_500, candidates: 6_000 };
const EXCERPT_LINES = 25;
const MAX_REASONS = 6;
const MAX_WARNINGS = 5;
const MAX_ALTERNATIVES = 5;

/**
 * One failure as the report shows it and the locator verified it. Facts carry their index (the
 * `{kind:"fact", issue_id, index}` citation) and evidence ids; long material stays in the
 * evidence store, reachable through read_evidence.
 */
export const getIssueFacts = defineTool({
  name: 'get_issue_facts',
  description:
    'Facts of one failure: error, expected/actual, operation, steps (each with its index for citing ' +
    'and its evidence id when the report had more), the stack locations as reported, and the ' +
    "locator's verified candidates at the revision with their confidence level (line, function, file, " +
    'need_evidence), diff impact and a short code excerpt.',
  input: Input,
  run: async (ctx, input) => describeIssue(findIssue(ctx, input.issue_id)),
});

export function findIssue(ctx: DiagnosisContext, id: string): Issue {
  const issue = ctx.facts.issues.find((candidate) => candidate.id === id);
  if (issue !== undefined) return issue;
  const known = ctx.facts.issues.slice(0, 20).map((i) => i.id);
  throw toolRefusal(`no issue "${id}" in this run; issues include: ${known.join(', ') || '(none)'}`, id);
}

/** The bounded description of one issue that get_issue_facts returns. */
export function describeIssue(issue: Issue): JsonObject {
  const facts = takeWithin(issue.facts.map(describeFact), BUDGET.facts);
  const locations = takeWithin(issue.locations.map(describeLocation), BUDGET.locations);
  const candidates = takeWithin((issue.candidates ?? []).map(describeCandidate), BUDGET.candidates);
  return {
    issue_id: issue.id,
    category: issue.category,
    status: issue.status,
    summary: clipLine(issue.summary, LIMITS.maxFactChars),
    test: { name: issue.test.name, full_name: issue.test.full_name },
    url: issue.url,
    facts: facts.kept,
    facts_total: issue.facts.length,
    locations: locations.kept,
    locations_total: issue.locations.length,
    candidates: candidates.kept,
    candidates_total: issue.candidates?.length ?? 0,
    located: issue.candidates !== undefined,
    warnings: issue.warnings.slice(0, MAX_WARNINGS).map((w) => clipLine(w, 200)),
    source_evidence: issue.source_evidence ?? null,
    truncated: facts.truncated || locations.truncated || candidates.truncated,
  };
}

function describeFact(fact: Issue['facts'][number], index: number): JsonObject {
  const value = clipLine(fact.value, LIMITS.maxFactChars);
  return {
    index,
    type: fact.type,
    ...(fact.name === undefined ? {} : { name: fact.name }),
    value,
    // `partial`: the value here is not the whole text; read_evidence has the rest.
    partial: fact.truncated === true || value !== fact.value,
    evidence: fact.evidence ?? null,
  };
}

function describeLocation(location: Issue['locations'][number], index: number): JsonObject {
  return {
    index,
    role: location.role,
    file: location.file,
    line: location.line,
    function: location.function,
    snippet: location.snippet === null ? null : clipLine(location.snippet, 200),
    library: location.library,
  };
}

function describeCandidate(candidate: VerifiedLocation, index: number): JsonObject {
  return {
    index,
    level: candidate.level,
    file: candidate.file,
    function: candidate.function === null ? null : { ...candidate.function },
    lines: candidate.lines === null ? null : { ...candidate.lines },
    reported: { ...candidate.reported },
    diff_impact: {
      kind: candidate.diff_impact.kind,
      changed_lines: candidate.diff_impact.changed_lines.slice(0, 10).map((r) => ({ ...r })),
      related_functions: candidate.diff_impact.related_functions.slice(0, 10),
    },
    reasons: candidate.reasons.slice(0, MAX_REASONS).map((r) => clipLine(r, 200)),
    alternatives: candidate.alternatives.slice(0, MAX_ALTERNATIVES).map((a) => a.file),
    excerpt: candidate.candidate === null ? null : describeExcerpt(candidate.candidate),
  };
}

/** The locator's excerpt, numbered with the file's own line numbers and cut shorter still. */
function describeExcerpt(block: CandidateBlock): JsonObject {
  const start = block.lines.start;
  const shown = numberLines(splitLines(block.text), start, start + EXCERPT_LINES - 1, {
    firstLine: start,
    maxChars: 2_000,
  });
  return {
    file: block.file,
    lines: { start, end: shown.end },
    text: shown.text,
    truncated: shown.truncated || shown.end < block.lines.end || block.truncated,
  };
}
