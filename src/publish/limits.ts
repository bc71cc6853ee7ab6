import { z } from 'zod';

/**
 * Our own caps, kept under Gerrit's server limits (`change.commentSizeLimit` 16 KiB per comment
 * and message, `change.maxComments` 5,000 per change by default) so a post is never refused for
 * size; what does not fit goes to the report page.
 */
export const PublishLimits = z.object({
  /** Bytes of the summary message, marker included. */
  maxMessageBytes: z.number().int().min(2_000).max(16_000).default(12_000),
  /** Bytes of one inline or file comment. */
  maxCommentBytes: z.number().int().min(500).max(16_000).default(4_000),
  /** Inline and file comments per post. */
  maxComments: z.number().int().nonnegative().max(200).default(20),
  /** Failures spelled out in the summary; the rest are counted and left to the page. */
  maxFailuresInSummary: z.number().int().positive().max(100).default(10),
});
export type PublishLimits = z.infer<typeof PublishLimits>;

/** Cuts text to a UTF-8 byte budget on a character boundary, marking the cut. */
export function clipBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let cut = text.slice(0, maxBytes);
  while (Buffer.byteLength(cut, 'utf8') > maxBytes - 4) cut = cut.slice(0, -1);
  return `${cut}…`;
}
