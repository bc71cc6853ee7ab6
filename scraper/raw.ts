import { z } from 'zod';

/**
 * What a platform adapter reads off one failure, before the facts builder turns it into an
 * issue. Adapters differ in how they reach a failure (DOM or data files); this shape is the
 * same for all, which is what makes DOM and data modes give identical facts.
 */
export const RawAttachment = z.object({
  name: z.string(),
  media_type: z.string().nullable(),
  /** Raw bytes as served: the facts builder detects the encoding and decodes to UTF-8. */
  body: z.instanceof(Buffer).nullable(),
  /** Set when the body could not be read (broken link, timeout): becomes a warning. */
  error: z.string().optional(),
  /** Charset the server declared (Content-Type), if any: a hint, not the truth. */
  declared_charset: z.string().optional(),
});
export type RawAttachment = z.infer<typeof RawAttachment>;

export const RawStep = z.object({
  name: z.string(),
  status: z.string().nullable(),
  depth: z.number().int().nonnegative(),
  message: z.string().nullable(),
});
export type RawStep = z.infer<typeof RawStep>;

export const RawFailure = z.object({
  name: z.string(),
  full_name: z.string().nullable(),
  /** Stable identity across regenerations (historyId, fullName, class+name). */
  key: z.string(),
  status: z.string(),
  /** Titles of the levels that led here, e.g. ['Product defects', '<message group>']. */
  reached_by: z.array(z.string()),
  report_category: z.string().nullable(),
  url: z.string(),
  message: z.string().nullable(),
  trace: z.string().nullable(),
  expected: z.string().nullable(),
  actual: z.string().nullable(),
  steps: z.array(RawStep),
  attachments: z.array(RawAttachment),
  parameters: z.array(z.object({ name: z.string(), value: z.string() })),
  labels: z.array(z.object({ name: z.string(), value: z.string() })),
  retries: z.array(z.object({ status: z.string(), message: z.string().nullable() })),
  flaky: z.boolean(),
  duration_ms: z.number().nullable(),
  /** The raw page (HTML in DOM mode, JSON in data mode), kept as evidence. */
  source: z.object({ kind: z.enum(['page_html', 'page_data']), text: z.string() }).nullable(),
  warnings: z.array(z.string()),
});
export type RawFailure = z.infer<typeof RawFailure>;

/** A failure with only what every platform can give; adapters fill the rest. */
export function emptyFailure(init: Pick<RawFailure, 'name' | 'key' | 'status' | 'url'>): RawFailure {
  return {
    full_name: null,
    reached_by: [],
    report_category: null,
    message: null,
    trace: null,
    expected: null,
    actual: null,
    steps: [],
    attachments: [],
    parameters: [],
    labels: [],
    retries: [],
    flaky: false,
    duration_ms: null,
    source: null,
    warnings: [],
    ...init,
  };
}
