import type { EventAccount, EventChange, EventPolicy } from './schema.ts';

/** Whether the account is one of `names` (usernames or emails; Gerrit treats both case-insensitively). */
export function isAccount(account: EventAccount, names: readonly string[]): boolean {
  const own = [account.username, account.email]
    .filter((v): v is string => v !== undefined && v !== '')
    .map((v) => v.toLowerCase());
  return names.some((name) => own.includes(name.toLowerCase()));
}

/** How decisions name an account: username, else email, else display name. */
export function accountName(account: EventAccount): string {
  return account.username || account.email || account.name || 'unknown account';
}

/** Why the change is outside the policy's allow-lists, or null when it is inside. */
export function outsideAllowLists(change: EventChange, policy: EventPolicy): string | null {
  if (policy.projects !== undefined && !policy.projects.includes(change.project)) {
    return `project ${change.project} is not in the allow-list`;
  }
  const branch = shortBranch(change.branch);
  if (policy.branches !== undefined && !policy.branches.map(shortBranch).includes(branch)) {
    return `branch ${branch} of ${change.project} is not in the allow-list`;
  }
  return null;
}

function shortBranch(branch: string): string {
  return branch.replace(/^refs\/heads\//, '');
}

/**
 * A line of its own, so that quoting or mentioning the command in a sentence does not trigger.
 * Gerrit's "Patch Set N:" first line never equals a command.
 */
export function hasCommandLine(comment: string, command: string): boolean {
  const wanted = command.trim().toLowerCase();
  return comment.split(/\r?\n/).some((line) => line.trim().toLowerCase() === wanted);
}

/** The report URL in a CI comment: capture group 1 when the pattern has one, else the match. */
export function findReportUrl(comment: string, pattern: string): string | null {
  const match = new RegExp(pattern, 'i').exec(comment);
  if (match === null) return null;
  return match[1] ?? match[0];
}
