import { z } from 'zod';

/**
 * Gerrit events as the webhooks plugin POSTs them and `gerrit stream-events` prints them
 * (https://gerrit-review.googlesource.com/Documentation/cmd-stream-events.html, json.html):
 * only the fields we decide on. Unknown fields are dropped; Gerrit says any field may be missing,
 * so what we need is required and the rest optional.
 */

/** Account attribute: `username` is absent (or "") for accounts without one. */
export const EventAccount = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  username: z.string().optional(),
});
export type EventAccount = z.infer<typeof EventAccount>;

/** Change attribute; `number` is deprecated upstream but still sent, and it is what REST takes. */
export const EventChange = z.object({
  project: z.string().min(1),
  branch: z.string().min(1),
  number: z.number().int().positive(),
});
export type EventChange = z.infer<typeof EventChange>;

export const EventPatchSet = z.object({
  number: z.number().int().positive(),
  revision: z.string().regex(/^[0-9a-f]{40}$/, 'expected a 40-hex commit sha'),
  /** e.g. refs/changes/34/1234/2 — what a git cache fetches. */
  ref: z.string().startsWith('refs/'),
});
export type EventPatchSet = z.infer<typeof EventPatchSet>;

/** Label values arrive as strings ("-1", "0", "1"); numbers are accepted too. */
const VoteValue = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^[+-]?\d+$/)
    .transform(Number),
]);

/**
 * Approval attribute of comment-added: the author's current vote on each label. `oldValue` is
 * present only when this event changed the vote, so a repeated -1 carries `value` alone.
 */
export const EventApproval = z.object({
  type: z.string(),
  value: VoteValue,
  oldValue: VoteValue.optional(),
});
export type EventApproval = z.infer<typeof EventApproval>;

export const PatchsetCreatedEvent = z.object({
  type: z.literal('patchset-created'),
  change: EventChange,
  patchSet: EventPatchSet,
});
export type PatchsetCreatedEvent = z.infer<typeof PatchsetCreatedEvent>;

/**
 * `comment` is "Patch Set N: <votes>\n\n<message>"; a patchset-level comment replaces the
 * message there, inline comments never appear.
 */
export const CommentAddedEvent = z.object({
  type: z.literal('comment-added'),
  change: EventChange,
  patchSet: EventPatchSet,
  author: EventAccount,
  approvals: z.array(EventApproval).default([]),
  comment: z.string().default(''),
});
export type CommentAddedEvent = z.infer<typeof CommentAddedEvent>;

/** First http(s) URL, without trailing punctuation or closing brackets of the sentence around it. */
export const DEFAULT_REPORT_URL_PATTERN = String.raw`https?://[^\s<>"'()\[\]{}]*[^\s<>"'()\[\]{}.,;:!?]`;

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

/** Which events start a diagnosis. Account names match usernames or emails, case-insensitively. */
export const EventPolicy = z.object({
  /** The CI verifier accounts whose negative Verified vote triggers a diagnosis. */
  ci_accounts: z.array(z.string().trim().min(1)).min(1),
  /** Our bot's account: its own comments never trigger (they may quote the retry command). */
  self_account: z.string().trim().min(1),
  verified_label: z.string().min(1).default('Verified'),
  /** Matched case-insensitively against each whole (trimmed) line of a human's comment. */
  retry_command: z.string().trim().min(1).default('ci-diagnosis: retry'),
  /**
   * Finds the report URL in the CI's comment (flag `i`): capture group 1 if the pattern has one
   * and it matched, else the whole match.
   */
  report_url_pattern: z
    .string()
    .refine(compiles, 'not a valid regular expression')
    .default(DEFAULT_REPORT_URL_PATTERN),
  /** Allow-lists; absent means every project / branch. Branches as `main` or `refs/heads/main`. */
  projects: z.array(z.string().min(1)).optional(),
  branches: z.array(z.string().min(1)).optional(),
});
export type EventPolicy = z.infer<typeof EventPolicy>;
export type EventPolicyInput = z.input<typeof EventPolicy>;

export const DiagnoseDecision = z.object({
  action: z.literal('diagnose'),
  trigger: z.enum(['ci_vote', 'retry_command']),
  project: z.string(),
  branch: z.string(),
  change_number: z.number().int().positive(),
  patchset: z.number().int().positive(),
  revision: z.string(),
  ref: z.string(),
  /** From the CI's comment; null when it has none, and for retry requests. */
  report_url: z.string().nullable(),
  /** Who asked: the CI account that voted, or the human who wrote the retry command. */
  requested_by: z.string(),
  reason: z.string(),
});
export type DiagnoseDecision = z.infer<typeof DiagnoseDecision>;

/** A new patchset makes pending runs for the change's earlier patchsets stale. */
export const SupersedeDecision = z.object({
  action: z.literal('supersede'),
  project: z.string(),
  change_number: z.number().int().positive(),
  patchset: z.number().int().positive(),
  revision: z.string(),
  reason: z.string(),
});
export type SupersedeDecision = z.infer<typeof SupersedeDecision>;

export const IgnoreDecision = z.object({
  action: z.literal('ignore'),
  reason: z.string(),
});
export type IgnoreDecision = z.infer<typeof IgnoreDecision>;

export const EventDecision = z.discriminatedUnion('action', [
  DiagnoseDecision,
  SupersedeDecision,
  IgnoreDecision,
]);
export type EventDecision = z.infer<typeof EventDecision>;
