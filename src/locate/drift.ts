import { type FileDiff, mapLine } from '../git/index.ts';

export interface Carried {
  /** Path at the target revision, or null when the file was deleted. */
  file: string | null;
  /** Line at the target revision; null when unknown or not carried over precisely. */
  line: number | null;
  /** True when the line moved only by whole-hunk offsets, so its text is unchanged. */
  exact: boolean;
  reasons: string[];
}

/**
 * Carries a reported place from the revision the report was built from to the revision under
 * review, through the diff between them. A line inside a rewritten hunk is not carried over as
 * precise: the snippet decides later.
 */
export function carryOver(path: string, line: number | null, diffs: readonly FileDiff[]): Carried {
  const fileDiff = diffs.find((d) => d.oldPath === path);
  if (fileDiff === undefined) {
    return {
      file: path,
      line,
      exact: line !== null,
      reasons: [`${path} unchanged since the report's revision`],
    };
  }
  if (fileDiff.status === 'deleted' || fileDiff.newPath === null) {
    return {
      file: null,
      line: null,
      exact: false,
      reasons: [`${path} was deleted after the report's revision`],
    };
  }
  const reasons = fileDiff.newPath !== path ? [`${path} was renamed to ${fileDiff.newPath}`] : [];
  if (line === null) return { file: fileDiff.newPath, line: null, exact: false, reasons };
  const mapped = mapLine(fileDiff.hunks, line);
  if (mapped.line === null) {
    reasons.push(`line ${line} was ${mapped.reason} after the report's revision: not carried over`);
    return { file: fileDiff.newPath, line: null, exact: false, reasons };
  }
  reasons.push(mapped.line === line ? `line ${line} did not move` : `line ${line} moved to ${mapped.line}`);
  return { file: fileDiff.newPath, line: mapped.line, exact: mapped.exact, reasons };
}
