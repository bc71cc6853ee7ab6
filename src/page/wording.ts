import type {
  ChangeTarget,
  CheckFinding,
  ConfidenceLevel,
  MissingEvidence,
  Signal,
  Verdict,
} from '../schemas/index.ts';
import { CATEGORY_LABEL } from '../util/labels.ts';

/** Words the page uses for the schema's enums (the Gerrit comment has its own, in publish/wording.ts). */

export const VERDICT: Record<Verdict, string> = {
  caused_by_change: 'Caused by this change',
  pre_existing: 'Pre-existing',
  flaky: 'Flaky',
  environment: 'Environment',
  need_evidence: 'Needs evidence',
};

/** One line under the verdict: what it means for the change owner. */
export const VERDICT_MEANS: Record<Verdict, string> = {
  caused_by_change: 'This change introduced the failure.',
  pre_existing: 'The same failure occurs without this change.',
  flaky: 'The test fails intermittently, with no link to this change.',
  environment: 'The CI environment failed (network, database, resources), not the code.',
  need_evidence: 'The evidence cannot decide yet; see what is missing.',
};

export const CATEGORY = CATEGORY_LABEL;

export const LEVEL: Record<ConfidenceLevel, string> = {
  line: 'line confirmed',
  function: 'function confirmed',
  file: 'file only',
  need_evidence: 'not confirmed',
};

/** What each rung of the location ladder (shared/DESIGN.md) means to a reader. */
export const LEVEL_MEANS: Record<ConfidenceLevel, string> = {
  line: 'The file exists at this revision and the function and code snippet agree on these lines.',
  function: 'The file and function exist at this revision; the exact line could not be confirmed.',
  file: 'Only the file path could be confirmed at this revision.',
  need_evidence: 'The path could not be confirmed at this revision.',
};

export const TARGET: Record<ChangeTarget, string> = {
  code: 'Change the code',
  test: 'Change the test',
  test_data: 'Change the test data or mocks',
  environment: 'Fix the environment (no code change)',
  none: 'No change needed',
  undecided: 'Not decided yet',
};

export const WHO: Record<MissingEvidence['who'], string> = {
  change_owner: 'change owner',
  qa: 'QA',
  ci_admin: 'CI admin',
  infra: 'infrastructure team',
  test_owner: 'test owner',
};

export const SIGNAL: Record<Signal['kind'], string> = {
  pre_existing: 'pre-existing',
  flaky: 'flaky',
  environment: 'environment',
  build_channel: 'build failure',
  diff_impact: 'diff impact',
  no_diff_link: 'no link to the diff',
};

export const SEVERITY: Record<CheckFinding['severity'], string> = { error: 'error', warning: 'warning' };

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function linesText(lines: { start: number; end: number } | null | undefined): string {
  if (lines === null || lines === undefined) return '';
  return lines.start === lines.end ? `line ${lines.start}` : `lines ${lines.start}–${lines.end}`;
}

/** `12,345`: grouping fixed to one locale so a page reads the same on every server. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
