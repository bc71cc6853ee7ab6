import type { ChangeAdvice, DiagnosisPlace, FailureDiagnosis, Verdict } from '../schemas/index.ts';
import { CATEGORY_LABEL } from '../util/labels.ts';
import { inlineCode, inlineText } from './markdown.ts';

const VERDICT: Record<Verdict, string> = {
  caused_by_change: 'caused by this change',
  pre_existing: 'pre-existing (not caused by this change)',
  flaky: 'flaky (not caused by this change)',
  environment: 'environment (not caused by this change)',
  need_evidence: 'undecided: needs evidence',
};

const CATEGORY = CATEGORY_LABEL;

const TARGET: Record<ChangeAdvice['target'], string> = {
  code: 'change the code',
  test: 'change the test',
  test_data: 'change the test data or mocks',
  environment: 'fix the environment (no code change)',
  none: 'no change needed',
  undecided: 'not decided yet',
};

export function verdictText(failure: FailureDiagnosis): string {
  const category = failure.category === 'need_evidence' ? '' : ` · ${CATEGORY[failure.category]}`;
  return `${VERDICT[failure.verdict]}${category}`;
}

/** Where, saying how sure: only a gated `line` place names lines. */
export function placeText(place: DiagnosisPlace): string {
  if (place.level === 'need_evidence' || place.file === null) return 'not confirmed (needs evidence)';
  const fn = place.function === null ? '' : ` in ${inlineCode(place.function)}`;
  const file = inlineCode(place.file);
  if (place.level === 'line' && place.lines !== null) {
    const { start, end } = place.lines;
    const lines = start === end ? `line ${start}` : `lines ${start}–${end}`;
    return `${file} ${lines}${fn} (line confirmed)`;
  }
  if (place.level === 'function') return `${file}${fn} (function confirmed, line not)`;
  return `${file} (file only)`;
}

export function changeText(change: ChangeAdvice): string {
  const where = [change.file, change.function]
    .filter((s): s is string => s !== null)
    .map((s) => inlineCode(s));
  const at = where.length === 0 ? '' : ` in ${where.join(' ')}`;
  return `${TARGET[change.target]}${at}: ${inlineText(change.advice.text)}`;
}

/** The causal chain as one line, earliest deviation last. */
export function whyText(failure: FailureDiagnosis, maxClaims = 3): string {
  const claims = failure.why.slice(-maxClaims).map((c) => inlineText(c.text, 240));
  const skipped = failure.why.length > maxClaims ? '… → ' : '';
  return claims.length === 0 ? 'not established' : `${skipped}${claims.join(' → ')}`;
}
