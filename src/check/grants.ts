import type { ConfidenceLevel, DiagnosisPlace, LineRange, VerifiedLocation } from '../schemas/index.ts';
import { overlaps } from './lines.ts';

/** Higher is surer: the ladder of shared/DESIGN.md. */
export const LEVEL_RANK: Readonly<Record<ConfidenceLevel, number>> = {
  need_evidence: 0,
  file: 1,
  function: 2,
  line: 3,
};

export const NO_PLACE: DiagnosisPlace = { level: 'need_evidence', file: null, function: null, lines: null };

/** What the locator granted for one file: the candidates of the issue that name it. */
export function grantsFor(candidates: readonly VerifiedLocation[], file: string): VerifiedLocation[] {
  return candidates.filter((c) => c.file === file && c.level !== 'need_evidence');
}

/** The locator granted `line` for these lines of this file. */
export function lineGranted(grants: readonly VerifiedLocation[], lines: LineRange): boolean {
  return grants.some((g) => g.level === 'line' && g.lines !== null && overlaps(g.lines, lines));
}

/** A function the locator confirmed in this file (at function level or better), for lowering a place to. */
export function grantedFunction(grants: readonly VerifiedLocation[]): string | null {
  const best = grants.find((g) => LEVEL_RANK[g.level] >= LEVEL_RANK.function && g.function !== null);
  return best?.function?.name ?? null;
}
