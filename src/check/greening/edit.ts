import { ASSERTION_LINE, COMMENT_LINE, type GreeningRule } from './rules.ts';
import { countMarkers, type GreeningHit } from './scan.ts';

const TIMEOUT_LINE = /time-?out/i;

/**
 * What an edit does to a test, judged on whole lines before and after it: assertions it
 * removes (or comments out) without adding as many, greening markers it adds (`@Disabled`,
 * `except: pass`, `jest.retryTimes`), and timeout values it raises.
 */
export function scanEdit(before: readonly string[], after: readonly string[]): GreeningHit[] {
  const { removed, added } = lineChanges(before, after);
  const hits: GreeningHit[] = [];
  const lost = countAssertions(removed) - countAssertions(added);
  if (lost > 0) {
    const commented = added.some((line) => COMMENT_LINE.test(line) && ASSERTION_LINE.test(line));
    hits.push({
      rule: commented ? COMMENTED_ASSERTION : REMOVED_ASSERTION,
      match: removed.find((line) => ASSERTION_LINE.test(line) && !COMMENT_LINE.test(line))?.trim() ?? '',
    });
  }
  const was = countMarkers(before.join('\n'));
  for (const [rule, n] of countMarkers(after.join('\n'))) {
    if (n > (was.get(rule) ?? 0)) hits.push({ rule, match: added.join('\n').trim() });
  }
  const raised = raisedTimeout(removed, added);
  if (raised !== null) hits.push({ rule: RAISED_TIMEOUT, match: raised });
  return hits;
}

const REMOVED_ASSERTION: GreeningRule = {
  kind: 'assertion',
  what: 'removes an assertion without replacing it',
  form: 'code',
  scope: 'all',
  pattern: ASSERTION_LINE,
};
const COMMENTED_ASSERTION: GreeningRule = { ...REMOVED_ASSERTION, what: 'comments out an assertion' };
const RAISED_TIMEOUT: GreeningRule = {
  kind: 'timeout',
  what: 'raises a timeout value',
  form: 'code',
  scope: 'all',
  pattern: TIMEOUT_LINE,
};

/** Lines only in `before` and lines only in `after`, compared trimmed and as multisets (moves are not changes). */
function lineChanges(before: readonly string[], after: readonly string[]) {
  const pool = new Map<string, number>();
  for (const line of before) pool.set(line.trim(), (pool.get(line.trim()) ?? 0) + 1);
  const added: string[] = [];
  for (const line of after) {
    const left = pool.get(line.trim()) ?? 0;
    if (left > 0) pool.set(line.trim(), left - 1);
    else added.push(line);
  }
  const removed: string[] = [];
  for (const line of before) {
    const left = pool.get(line.trim()) ?? 0;
    if (left > 0) {
      pool.set(line.trim(), left - 1);
      removed.push(line);
    }
  }
  return { removed, added };
}

function countAssertions(lines: readonly string[]): number {
  return lines.filter((line) => ASSERTION_LINE.test(line) && !COMMENT_LINE.test(line)).length;
}

/** The added timeout line when its largest number exceeds that of the timeout line it replaces. */
function raisedTimeout(removed: readonly string[], added: readonly string[]): string | null {
  const old = Math.max(...removed.filter((l) => TIMEOUT_LINE.test(l)).map(largestNumber));
  if (!Number.isFinite(old)) return null;
  const grown = added.find((l) => TIMEOUT_LINE.test(l) && largestNumber(l) > old);
  return grown?.trim() ?? null;
}

function largestNumber(line: string): number {
  const numbers = [...line.matchAll(/\d[\d_]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/_/g, '')));
  return numbers.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...numbers);
}
