import type { z } from 'zod';
import { DiagnosisError } from '../errors/index.ts';
import { accountName, findReportUrl, hasCommandLine, isAccount, outsideAllowLists } from './match.ts';
import {
  type CommentAddedEvent,
  CommentAddedEvent as CommentAddedSchema,
  type DiagnoseDecision,
  type EventDecision,
  type EventPolicy,
  type PatchsetCreatedEvent,
  PatchsetCreatedEvent as PatchsetCreatedSchema,
} from './schema.ts';

/** The part of a pino logger used here. */
export interface EventLog {
  info(obj: object, msg: string): void;
}

/**
 * What to do about one Gerrit event: diagnose a patchset (a CI account voted Verified below
 * zero, or a human wrote the retry command), supersede runs of a change's earlier patchsets
 * (a new patchset), or ignore it. Event types other than patchset-created and comment-added are
 * ignored with a log line. Throws `EVENT_INVALID` for a payload that is not an event, or a known
 * event lacking a field we need (the HTTP layer answers 400).
 */
export function decideOnEvent(raw: unknown, policy: EventPolicy, log: EventLog): EventDecision {
  const type = eventType(raw);
  switch (type) {
    case 'patchset-created':
      return onPatchsetCreated(parseEvent(PatchsetCreatedSchema, raw, type), policy);
    case 'comment-added':
      return onCommentAdded(parseEvent(CommentAddedSchema, raw, type), policy);
    default:
      log.info({ event_type: type }, 'Gerrit event type not handled; ignored');
      return ignore(`event type ${type} is not handled`);
  }
}

function eventType(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new DiagnosisError('EVENT_INVALID', 'Gerrit event is not a JSON object');
  }
  const type: unknown = (raw as Record<string, unknown>).type;
  if (typeof type !== 'string' || type === '') {
    throw new DiagnosisError('EVENT_INVALID', 'Gerrit event has no "type"', { input: 'type' });
  }
  return type;
}

function parseEvent<S extends z.ZodType>(schema: S, raw: unknown, type: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.join('.') || '(root)';
  throw new DiagnosisError('EVENT_INVALID', `Gerrit ${type} event: ${path}: ${issue?.message ?? 'invalid'}`, {
    input: path,
  });
}

function onPatchsetCreated(event: PatchsetCreatedEvent, policy: EventPolicy): EventDecision {
  const outside = outsideAllowLists(event.change, policy);
  if (outside !== null) return ignore(outside);
  const { change, patchSet } = event;
  return {
    action: 'supersede',
    project: change.project,
    change_number: change.number,
    patchset: patchSet.number,
    revision: patchSet.revision,
    reason: `patchset ${patchSet.number} of change ${change.number} uploaded: runs for earlier patchsets are stale`,
  };
}

function onCommentAdded(event: CommentAddedEvent, policy: EventPolicy): EventDecision {
  const outside = outsideAllowLists(event.change, policy);
  if (outside !== null) return ignore(outside);
  const author = accountName(event.author);
  if (isAccount(event.author, [policy.self_account])) return ignore(`comment by our own account ${author}`);
  if (isAccount(event.author, policy.ci_accounts)) return onCiComment(event, policy);
  if (hasCommandLine(event.comment, policy.retry_command)) {
    return diagnose(event, 'retry_command', null, `${author} asked for a new diagnosis`);
  }
  return ignore(`comment by ${author} is neither a CI vote nor a retry request`);
}

/**
 * Any negative vote counts, changed or not: a CI that fails the same patchset again re-posts -1
 * and Gerrit then sends the value without `oldValue`.
 */
function onCiComment(event: CommentAddedEvent, policy: EventPolicy): EventDecision {
  const label = policy.verified_label;
  const ci = accountName(event.author);
  const vote = event.approvals.find((a) => a.type === label);
  if (vote === undefined || vote.value >= 0) {
    return ignore(`comment by CI account ${ci} carries no negative ${label} vote`);
  }
  const how = vote.oldValue === undefined ? 'still' : `changed from ${vote.oldValue} to`;
  return diagnose(
    event,
    'ci_vote',
    findReportUrl(event.comment, policy.report_url_pattern),
    `${ci} voted ${label} ${how} ${vote.value} on patchset ${event.patchSet.number}`,
  );
}

function diagnose(
  event: CommentAddedEvent,
  trigger: DiagnoseDecision['trigger'],
  reportUrl: string | null,
  reason: string,
): DiagnoseDecision {
  return {
    action: 'diagnose',
    trigger,
    project: event.change.project,
    branch: event.change.branch,
    change_number: event.change.number,
    patchset: event.patchSet.number,
    revision: event.patchSet.revision,
    ref: event.patchSet.ref,
    report_url: reportUrl,
    requested_by: accountName(event.author),
    reason,
  };
}

function ignore(reason: string): EventDecision {
  return { action: 'ignore', reason };
}
