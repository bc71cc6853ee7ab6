import type { CheckFinding, DiagnosisDraft } from '../../schemas/index.ts';
import type { Resolution } from '../citations.ts';
import { clip, error } from '../findings.ts';
import type { CheckInput } from '../input.ts';
import type { Sources } from '../sources.ts';
import { editedLines, textRangeProblem } from '../text-range.ts';
import { scanEdit } from './edit.ts';
import { type GreeningHit, scanText, type TextScope } from './scan.ts';
import { timeoutJustified } from './timeout.ts';

/**
 * `ci_greening_advice` for every part of the fix plan that only turns CI green: the advice and
 * its rationale, the fix's description and edits, the verify commands. One finding per part
 * and kind of greening; timeout raises are dropped when `timeoutJustified` finds a cause.
 */
export async function checkGreening(
  draft: DiagnosisDraft,
  sources: Sources,
  input: CheckInput,
  resolutions: readonly Resolution[],
): Promise<CheckFinding[]> {
  const parts: { path: string; hits: GreeningHit[] }[] = [];
  const text = (path: string, value: string, scope: TextScope) =>
    parts.push({ path, hits: scanText(value, scope) });
  if (draft.change !== null) {
    text('change.advice', draft.change.advice.text, 'advice');
    if (draft.change.rationale !== null) text('change.rationale', draft.change.rationale.text, 'advice');
  }
  draft.verify.forEach((step, i) => {
    text(`verify.${i}`, step, 'verify');
  });
  if (draft.fix !== null) {
    text('fix.description', draft.fix.description, 'advice');
    for (const [i, r] of draft.fix.replacements.entries())
      parts.push({ path: `fix.replacements.${i}`, hits: await editHits(r, sources) });
  }
  const cause = parts.some((p) => p.hits.some((h) => h.rule.kind === 'timeout'))
    ? timeoutJustified(input, resolutions)
    : null;
  return parts.flatMap(({ path, hits }) =>
    findingsFor(path, cause === null ? hits : hits.filter((h) => h.rule.kind !== 'timeout')),
  );
}

/** An edit of a file at the revision is judged by what it changes; otherwise by the text it inserts. */
async function editHits(
  r: NonNullable<DiagnosisDraft['fix']>['replacements'][number],
  sources: Sources,
): Promise<GreeningHit[]> {
  const file = await sources.code(r.path);
  if (file.kind !== 'text' || textRangeProblem(r.range, file.lines) !== null)
    return scanEdit([], r.replacement.split(/\r?\n/));
  const { before, after } = editedLines(file.lines, r.range, r.replacement);
  return scanEdit(before, after);
}

function findingsFor(path: string, hits: readonly GreeningHit[]): CheckFinding[] {
  const byKind = new Map<string, GreeningHit[]>();
  for (const hit of hits) byKind.set(hit.rule.kind, [...(byKind.get(hit.rule.kind) ?? []), hit]);
  return [...byKind.values()].map((same) => {
    const first = same[0] as GreeningHit;
    const timeout =
      first.rule.kind === 'timeout' ? ' without a cause (no timeout signal, no measured duration cited)' : '';
    return error(
      'ci_greening_advice',
      path,
      `${first.rule.what}${timeout} ("${clip(first.match)}"): this only turns CI green; fix the cause instead`,
    );
  });
}
