import type { DiagnosisPlace, VerifiedLocation } from '../schemas/index.ts';
import { isError } from './findings.ts';
import { findFunctions } from './functions.ts';
import { grantedFunction, grantsFor, LEVEL_RANK, NO_PLACE } from './grants.ts';
import { checkPlace } from './place.ts';
import type { Sources } from './sources.ts';

/**
 * The highest place at or below the draft's level that passes the place checks, down the
 * ladder line → function → file → need_evidence. A place is only ever lowered, never moved:
 * the function kept is the one the draft named, or — when it named none — the one the locator
 * confirmed in that file.
 */
export async function lowerPlace(
  place: DiagnosisPlace,
  sources: Sources,
  candidates: readonly VerifiedLocation[],
): Promise<DiagnosisPlace> {
  for (const option of await lowerOptions(place, sources, candidates)) {
    if (!(await checkPlace(option, sources, candidates)).some(isError)) return option;
  }
  return NO_PLACE;
}

async function lowerOptions(
  place: DiagnosisPlace,
  sources: Sources,
  candidates: readonly VerifiedLocation[],
): Promise<DiagnosisPlace[]> {
  const file = place.file;
  if (file === null) return [];
  const options: DiagnosisPlace[] = [];
  const rank = LEVEL_RANK[place.level];
  if (rank >= LEVEL_RANK.line) options.push(place);
  if (rank >= LEVEL_RANK.function) {
    const spans = await sources.functions(file);
    const named = place.function === null ? [] : findFunctions(spans, place.function);
    // A function the draft named but the parser does not find is not swapped for another one.
    const name =
      place.function === null
        ? grantedFunction(grantsFor(candidates, file))
        : named.length > 0
          ? place.function
          : null;
    if (name !== null) {
      const found = named.length > 0 ? named : findFunctions(spans, name);
      const lines = found.length === 1 ? (found[0]?.lines ?? null) : null;
      options.push({ level: 'function', file, function: name, lines });
    }
  }
  if (rank >= LEVEL_RANK.file) options.push({ level: 'file', file, function: null, lines: null });
  return options;
}
