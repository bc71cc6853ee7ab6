import type { CheckFinding, DiagnosisDraft } from '../schemas/index.ts';
import { error } from './findings.ts';
import { findFunctions } from './functions.ts';
import type { Sources } from './sources.ts';
import { textRangeProblem } from './text-range.ts';

/** The fix plan names a file and function that exist at the revision. */
export async function checkChange(draft: DiagnosisDraft, sources: Sources): Promise<CheckFinding[]> {
  const change = draft.change;
  if (change === null || change.file === null) return [];
  const file = await sources.code(change.file);
  if (file.kind === 'absent')
    return [error('file_not_at_revision', 'change.file', `${change.file} does not exist at the revision`)];
  if (
    change.function === null ||
    findFunctions(await sources.functions(change.file), change.function).length > 0
  )
    return [];
  return [
    error(
      'function_not_found',
      'change.function',
      `the parser finds no function ${change.function} in ${change.file}`,
    ),
  ];
}

/** A verified fix edits files of the revision inside their text, and its test run is in the evidence store. */
export async function checkFix(draft: DiagnosisDraft, sources: Sources): Promise<CheckFinding[]> {
  const fix = draft.fix;
  if (fix === null) return [];
  const findings: CheckFinding[] = [];
  for (const [i, r] of fix.replacements.entries()) {
    const path = `fix.replacements.${i}`;
    const file = await sources.code(r.path);
    if (file.kind === 'absent') {
      findings.push(error('file_not_at_revision', path, `${r.path} does not exist at the revision`));
      continue;
    }
    const problem = file.kind === 'text' ? textRangeProblem(r.range, file.lines) : file.reason;
    if (problem !== null) findings.push(error('lines_out_of_range', path, `${r.path}: ${problem}`));
  }
  if ((await sources.evidence(fix.verification.evidence)) === null) {
    findings.push(
      error(
        'evidence_not_found',
        'fix.verification.evidence',
        `the fix's test run ${fix.verification.evidence} is not in the evidence store`,
      ),
    );
  }
  return findings;
}
