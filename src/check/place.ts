import type { CheckFinding, DiagnosisPlace, VerifiedLocation } from '../schemas/index.ts';
import { error } from './findings.ts';
import { findFunctions } from './functions.ts';
import { grantsFor, lineGranted } from './grants.ts';
import { rangeOutside, showRange } from './lines.ts';
import type { Sources } from './sources.ts';

/**
 * The place may name only what exists at the revision, and claim no more than was granted: a
 * `line` needs the locator's `line` for overlapping lines of the same file; a `function` needs
 * the parser to find the named function in that file (the locator's own function grants come
 * from the same parser); `file` needs the file.
 */
export async function checkPlace(
  place: DiagnosisPlace,
  sources: Sources,
  candidates: readonly VerifiedLocation[],
): Promise<CheckFinding[]> {
  if (place.file === null) {
    if (place.level === 'need_evidence') return [];
    return [error('file_not_at_revision', 'place.file', `a ${place.level}-level place names no file`)];
  }
  const file = await sources.code(place.file);
  if (file.kind === 'absent')
    return [error('file_not_at_revision', 'place.file', `${place.file} does not exist at the revision`)];
  const findings: CheckFinding[] = [];
  if (place.lines !== null) {
    const outside =
      file.kind === 'text'
        ? rangeOutside(place.lines, file.lines.length)
        : `they cannot be checked: ${file.reason}`;
    if (outside !== null)
      findings.push(error('lines_out_of_range', 'place.lines', `${place.file}: ${outside}`));
  }
  findings.push(...(await functionFindings(place, place.file, sources)));
  findings.push(...levelFindings(place, place.file, candidates));
  return findings;
}

async function functionFindings(
  place: DiagnosisPlace,
  file: string,
  sources: Sources,
): Promise<CheckFinding[]> {
  if (place.function === null) {
    if (place.level !== 'function') return [];
    return [
      error('function_not_found', 'place.function', `a function-level place in ${file} names no function`),
    ];
  }
  if (findFunctions(await sources.functions(file), place.function).length > 0) return [];
  return [
    error(
      'function_not_found',
      'place.function',
      `the parser finds no function ${place.function} in ${file}`,
    ),
  ];
}

function levelFindings(
  place: DiagnosisPlace,
  file: string,
  candidates: readonly VerifiedLocation[],
): CheckFinding[] {
  if (place.level !== 'line') return [];
  if (place.lines === null)
    return [error('line_not_granted', 'place', `a line-level place in ${file} names no lines`)];
  if (lineGranted(grantsFor(candidates, file), place.lines)) return [];
  return [
    error(
      'line_not_granted',
      'place',
      `the locator did not confirm ${file} ${showRange(place.lines)} at line level: at most function or file`,
    ),
  ];
}
