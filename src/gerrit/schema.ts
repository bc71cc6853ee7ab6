import { z } from 'zod';

/**
 * Only the fields of Gerrit's REST entities that we use, lenient where Gerrit omits fields
 * (https://gerrit-review.googlesource.com/Documentation/rest-api-changes.html#json-entities).
 * Unknown fields are dropped.
 */

/** FileInfo: `status` is absent for a modified file; A/D/R/C/W otherwise. */
export const FileInfo = z.object({
  status: z.enum(['A', 'D', 'R', 'C', 'W']).optional(),
  old_path: z.string().optional(),
  binary: z.boolean().optional(),
  lines_inserted: z.number().int().optional(),
  lines_deleted: z.number().int().optional(),
});
export type FileInfo = z.infer<typeof FileInfo>;

/** `GET …/revisions/{rev}/files/`: path → FileInfo (includes the magic `/COMMIT_MSG`). */
export const FileInfoMap = z.record(z.string(), FileInfo);
export type FileInfoMap = z.infer<typeof FileInfoMap>;

export const CommitInfo = z.object({
  commit: z.string().optional(),
  parents: z.array(z.object({ commit: z.string() })),
  subject: z.string().optional(),
  message: z.string().optional(),
});
export type CommitInfo = z.infer<typeof CommitInfo>;

export const RevisionInfo = z.object({
  _number: z.number().int(),
  /** The fetch ref of the patchset, e.g. refs/changes/34/1234/2 — what a git cache fetches. */
  ref: z.string(),
  commit: CommitInfo.optional(),
  files: FileInfoMap.optional(),
});
export type RevisionInfo = z.infer<typeof RevisionInfo>;

export const ChangeMessageInfo = z.object({
  id: z.string(),
  tag: z.string().optional(),
  message: z.string(),
  _revision_number: z.number().int().optional(),
  date: z.string().optional(),
});
export type ChangeMessageInfo = z.infer<typeof ChangeMessageInfo>;

export const ChangeInfo = z.object({
  id: z.string(),
  project: z.string(),
  branch: z.string(),
  change_id: z.string(),
  _number: z.number().int(),
  subject: z.string(),
  status: z.string(),
  current_revision: z.string().optional(),
  revisions: z.record(z.string(), RevisionInfo).optional(),
  messages: z.array(ChangeMessageInfo).optional(),
});
export type ChangeInfo = z.infer<typeof ChangeInfo>;

export const ChangeType = z.enum(['ADDED', 'MODIFIED', 'DELETED', 'RENAMED', 'COPIED', 'REWRITE']);
export type ChangeType = z.infer<typeof ChangeType>;

const DiffFileMeta = z.object({
  name: z.string(),
  content_type: z.string().optional(),
  lines: z.number().int().optional(),
});

/**
 * One DiffContent chunk: `ab` lines common to both sides, `a` only in the old, `b` only in the
 * new (both for a replacement), `skip` common lines left out when context is limited.
 */
export const DiffContent = z.object({
  a: z.array(z.string()).optional(),
  b: z.array(z.string()).optional(),
  ab: z.array(z.string()).optional(),
  skip: z.number().int().nonnegative().optional(),
});
export type DiffContent = z.infer<typeof DiffContent>;

export const DiffInfo = z.object({
  meta_a: DiffFileMeta.optional(),
  meta_b: DiffFileMeta.optional(),
  change_type: ChangeType,
  content: z.array(DiffContent),
  binary: z.boolean().optional(),
});
export type DiffInfo = z.infer<typeof DiffInfo>;

/** CommentRange: lines 1-based, characters 0-based, end exclusive. */
export const CommentRange = z.object({
  start_line: z.number().int(),
  start_character: z.number().int(),
  end_line: z.number().int(),
  end_character: z.number().int(),
});
export type CommentRange = z.infer<typeof CommentRange>;

export const FixReplacement = z.object({
  path: z.string(),
  range: CommentRange,
  replacement: z.string(),
});
export type FixReplacement = z.infer<typeof FixReplacement>;

export const FixSuggestion = z.object({
  fix_id: z.string().optional(),
  description: z.string(),
  replacements: z.array(FixReplacement),
});
export type FixSuggestion = z.infer<typeof FixSuggestion>;

export const CommentInfo = z.object({
  id: z.string(),
  line: z.number().int().optional(),
  range: CommentRange.optional(),
  message: z.string().optional(),
  unresolved: z.boolean().optional(),
  tag: z.string().optional(),
  commit_id: z.string().optional(),
  fix_suggestions: z.array(FixSuggestion).optional(),
});
export type CommentInfo = z.infer<typeof CommentInfo>;

/** `GET …/revisions/{rev}/comments/`: path → comments. */
export const CommentInfoMap = z.record(z.string(), z.array(CommentInfo));
export type CommentInfoMap = z.infer<typeof CommentInfoMap>;

export const ReviewResult = z.object({
  labels: z.record(z.string(), z.number()).optional(),
  ready: z.boolean().optional(),
  error: z.string().optional(),
});
export type ReviewResult = z.infer<typeof ReviewResult>;

/** CommentInput as we send it; `line` absent means a file comment. */
export const CommentInput = z.object({
  line: z.number().int().positive().optional(),
  range: CommentRange.optional(),
  side: z.enum(['REVISION', 'PARENT']).optional(),
  message: z.string(),
  unresolved: z.boolean().optional(),
  fix_suggestions: z.array(FixSuggestion.omit({ fix_id: true })).optional(),
});
export type CommentInput = z.infer<typeof CommentInput>;

/** ReviewInput for `POST …/revisions/{rev}/review`. */
export const ReviewInput = z.object({
  message: z.string().optional(),
  tag: z.string().optional(),
  labels: z.record(z.string(), z.number().int()).optional(),
  comments: z.record(z.string(), z.array(CommentInput)).optional(),
  notify: z.enum(['NONE', 'OWNER', 'OWNER_REVIEWERS', 'ALL']).optional(),
  omit_duplicate_comments: z.boolean().optional(),
});
export type ReviewInput = z.infer<typeof ReviewInput>;
