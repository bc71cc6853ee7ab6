import { z } from 'zod';
import { LocationRole } from './common.ts';

/** The location confidence ladder (shared/DESIGN.md): what a location may be used for. */
export const ConfidenceLevel = z.enum(['line', 'function', 'file', 'need_evidence']);
export type ConfidenceLevel = z.infer<typeof ConfidenceLevel>;

/** 1-based, inclusive line range at the target revision. */
export const LineRange = z.object({ start: z.number().int().positive(), end: z.number().int().positive() });
export type LineRange = z.infer<typeof LineRange>;

/** A function found by a real parser at the target revision. */
export const FunctionSpan = z.object({
  /** As the frame would name it: `Class.method`, `pkg.Func`, `outer.inner`. */
  name: z.string(),
  lines: LineRange,
});
export type FunctionSpan = z.infer<typeof FunctionSpan>;

/**
 * How the change under review relates to the place: evidence for "caused by this change".
 * `in_hunk` > `in_function` > `in_file` > `untouched`; `unknown` when no diff was available.
 */
export const DiffImpact = z.object({
  kind: z.enum(['in_hunk', 'in_function', 'in_file', 'untouched', 'unknown']),
  /** Changed lines (target side) nearest the place, for citing. */
  changed_lines: z.array(LineRange),
  /** Functions of this file the change touched and the place calls or is called by (same file). */
  related_functions: z.array(z.string()),
});
export type DiffImpact = z.infer<typeof DiffImpact>;

/** A bounded excerpt later stages read instead of whole files. */
export const CandidateBlock = z.object({
  file: z.string(),
  lines: LineRange,
  /** The excerpt's lines, each prefixed by nothing: line N is `text.split('\n')[N - lines.start]`. */
  text: z.string(),
  truncated: z.boolean(),
});
export type CandidateBlock = z.infer<typeof CandidateBlock>;

export const PathCandidate = z.object({
  file: z.string(),
  /** Why this path: which mapping rule or basename match produced it. */
  via: z.string(),
  score: z.number(),
});
export type PathCandidate = z.infer<typeof PathCandidate>;

export const VerifiedLocation = z.object({
  level: ConfidenceLevel,
  /** Path in the repository at the target revision; null at need_evidence. */
  file: z.string().nullable(),
  function: FunctionSpan.nullable(),
  lines: LineRange.nullable(),
  /** Every step's finding, in order, so a reviewer sees why this level and not a higher one. */
  reasons: z.array(z.string()),
  diff_impact: DiffImpact,
  candidate: CandidateBlock.nullable(),
  /** Other files that could be meant, when the path was ambiguous: kept visible, never silently dropped. */
  alternatives: z.array(PathCandidate),
  /** The frame this came from, as the report gave it. */
  reported: z.object({
    role: LocationRole,
    frame_index: z.number().int().nonnegative(),
    file: z.string(),
    line: z.number().int().positive().nullable(),
    function: z.string().nullable(),
  }),
});
export type VerifiedLocation = z.infer<typeof VerifiedLocation>;

export const LocateRun = z.object({
  repository: z.string(),
  revision: z.string(),
  report_revision: z.string().nullable(),
  diff_base: z.string().nullable(),
  located_at: z.string(),
});
export type LocateRun = z.infer<typeof LocateRun>;
