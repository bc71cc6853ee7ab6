import { z } from 'zod';
import { EvidenceId } from '../../schemas/index.ts';

export const EvidenceKind = z.enum([
  'trace',
  'log',
  'attachment',
  'page_html',
  'page_data',
  'message',
  'report_file',
]);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

export const EvidenceMeta = z.object({
  kind: EvidenceKind,
  /** Where it came from: a URL or a path, so an engineer can find the original. */
  source: z.string(),
  media_type: z.string().default('text/plain'),
  /** Encoding the original bytes had before they were decoded to UTF-8, when detected. */
  original_encoding: z.string().optional(),
});
export type EvidenceMeta = z.input<typeof EvidenceMeta>;

export const EvidenceRecord = z.object({
  id: EvidenceId,
  sha256: z.string(),
  kind: EvidenceKind,
  source: z.string(),
  media_type: z.string(),
  original_encoding: z.string().nullable(),
  bytes: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type EvidenceRecord = z.infer<typeof EvidenceRecord>;

export const EvidenceFragment = z.object({
  id: EvidenceId,
  /** 1-based, inclusive line range actually returned. */
  from: z.number().int().positive(),
  to: z.number().int().nonnegative(),
  total_lines: z.number().int().nonnegative(),
  text: z.string(),
  truncated: z.boolean(),
});
export type EvidenceFragment = z.infer<typeof EvidenceFragment>;
