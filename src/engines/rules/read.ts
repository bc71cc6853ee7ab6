import type { Claim, DiagnosisPlace, Issue } from '../../schemas/index.ts';
import type { ReadingNotes } from '../../skill/index.ts';

/** Fact types that state what happened, as opposed to how the report is organised. */
const OBSERVED = new Set(['error', 'message', 'expected', 'actual', 'operation']);

/** Stage `read`: observed facts (cited), the locator's candidates as granted, and what is unknown. */
export function readIssue(issue: Issue): ReadingNotes {
  const observed: Claim[] = issue.facts.flatMap((fact, index) =>
    OBSERVED.has(fact.type) && fact.value.trim() !== ''
      ? [
          {
            text: `${fact.type}: ${firstLine(fact.value)}`,
            cites: [{ kind: 'fact' as const, issue_id: issue.id, index }],
          },
        ]
      : [],
  );
  const candidates: DiagnosisPlace[] = (issue.candidates ?? []).map((c) => ({
    level: c.level,
    file: c.file,
    function: c.function?.name ?? null,
    lines: c.level === 'line' ? c.lines : null,
  }));
  return { observed, candidates, unknowns: unknownsOf(issue) };
}

function unknownsOf(issue: Issue): string[] {
  const has = (type: string) => issue.facts.some((f) => f.type === type);
  const unknowns: string[] = [];
  if (!has('expected') && !has('actual')) unknowns.push('the report states no expected and actual values');
  if (!has('log') && !has('attachment')) unknowns.push('the report has no log of the run for this test');
  if ((issue.candidates ?? []).every((c) => c.level === 'need_evidence')) {
    unknowns.push('no stack frame could be located in the repository at this revision');
  }
  return unknowns;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? text;
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
