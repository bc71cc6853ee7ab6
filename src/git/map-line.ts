import { DiagnosisError } from '../errors/index.ts';
import type { Hunk } from './schema.ts';

export type MappedLine = { line: number; exact: boolean } | { line: null; reason: 'deleted' | 'rewritten' };

/**
 * Carries a line of the old side of a diff to the new side. A line no hunk touches keeps its
 * text and shifts by the net size change of the hunks above it (exact). A line inside a hunk is
 * not carried: 'deleted' when the hunk only removes, 'rewritten' when it replaces.
 *
 * Unified-diff convention: a hunk with `oldLines` 0 inserts *after* old line `oldStart`, so it
 * lies above `oldLine` only when `oldStart < oldLine`.
 */
export function mapLine(hunks: readonly Hunk[], oldLine: number): MappedLine {
  if (!Number.isInteger(oldLine) || oldLine < 1) {
    throw new DiagnosisError('INVALID_ARGUMENT', `line ${oldLine} is not a 1-based line number`);
  }
  let offset = 0;
  for (const hunk of hunks) {
    const oldEnd = hunk.oldStart + hunk.oldLines - 1;
    if (hunk.oldLines > 0 && oldLine >= hunk.oldStart && oldLine <= oldEnd) {
      return { line: null, reason: hunk.newLines === 0 ? 'deleted' : 'rewritten' };
    }
    const above = hunk.oldLines > 0 ? oldEnd < oldLine : hunk.oldStart < oldLine;
    if (above) offset += hunk.newLines - hunk.oldLines;
  }
  return { line: oldLine + offset, exact: true };
}
