import type { RawStep } from '../../raw.ts';
import type { AttachmentLink, TestError, TestResult, TestStep } from './schema.ts';

/**
 * What the Awesome UI shows, computed from the data files. DOM mode reads these values off the
 * page and data mode computes them here with the UI's own rules (web-awesome's error, step and
 * retry components, @allurereport/core-api `formatDuration`), which is what makes the two modes
 * produce the same RawFailure. Each rule names the UI behaviour it mirrors.
 */

/**
 * ANSI escape sequences (colours from vitest, pytest --color). The UI renders them as styled
 * spans, so the text a reader sees has none; CSI sequences are what test runners emit.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what starts every ANSI sequence.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** Text as a reader sees it in a `<pre>`: no colour codes, no trailing blank space. */
export function shownText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = text.replace(ANSI, '').replace(/\r\n?/g, '\n').trimEnd();
  return cleaned.trim() === '' ? null : cleaned;
}

/** The error block's diff button appears only when both sides are given (web-awesome `$r`). */
export function shownDiff(error: TestError | undefined): { expected: string; actual: string } | null {
  const { expected, actual } = error ?? {};
  const usable = (v: unknown): v is string | number | boolean =>
    v !== undefined && v !== null && v !== '' && v !== 'undefined' && v !== false && v !== 0;
  if (!usable(expected) || !usable(actual)) return null;
  return { expected: String(expected), actual: String(actual) };
}

/**
 * The level-2 and level-3 duration text (core-api `formatDuration`): the two largest units, so
 * "1m 5s" hides milliseconds. Durations are kept at that precision in both modes.
 */
export function formatDuration(ms: number | undefined): string | null {
  if (ms === undefined) return null;
  if (ms < 0.5) return '0s';
  const units: Array<[string, number]> = [
    ['d', Math.floor(ms / 86_400_000)],
    ['h', Math.floor(ms / 3_600_000) % 24],
    ['m', Math.floor(ms / 60_000) % 60],
    ['s', Math.floor(ms / 1000) % 60],
    ['ms', Math.round(ms) % 1000],
  ];
  const parts: string[] = [];
  for (const [suffix, value] of units) {
    if (parts.length === 0 && value === 0) continue;
    parts.push(`${value}${suffix}`);
    if (parts.length > 1) break;
  }
  return parts.join(' ');
}

const UNIT_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** Milliseconds of a formatted duration ("1s 200ms"); null for anything else ("unknown"). */
export function parseDuration(text: string | null | undefined): number | null {
  const parts = text?.trim().split(/\s+/) ?? [];
  if (parts.length === 0 || parts[0] === '') return null;
  let total = 0;
  for (const part of parts) {
    const match = /^(\d+)(d|h|ms|m|s)$/.exec(part);
    if (!match) return null;
    total += Number(match[1]) * (UNIT_MS[match[2] as string] ?? 0);
  }
  return total;
}

/** Duration at the precision the UI shows it. */
export function shownDuration(ms: number | undefined): number | null {
  return parseDuration(formatDuration(ms));
}

/**
 * Stable identity: fullName, plus the shown parameters, because allure-pytest gives every
 * parametrised case the same fullName. historyId would do, but the page never shows it.
 */
export function failureKey(
  fullName: string | null,
  name: string,
  parameters: ReadonlyArray<{ name: string; value: string }>,
): string {
  const base = fullName ?? name;
  if (parameters.length === 0) return base;
  return `${base}[${parameters.map((p) => `${p.name}=${p.value}`).join(', ')}]`;
}

/** The Labels section lists `groupedLabels` entries; a label without value shows as an empty one. */
export function shownLabels(result: TestResult): Array<{ name: string; value: string }> {
  const grouped =
    result.groupedLabels ??
    result.labels.reduce<Record<string, string[]>>((acc, label) => {
      acc[label.name] ??= [];
      if (label.value) acc[label.name]?.push(label.value);
      return acc;
    }, {});
  return Object.entries(grouped).flatMap(([name, values]) =>
    values.length === 0 ? [{ name, value: '' }] : values.map((value) => ({ name, value })),
  );
}

/** The retries tab's preview line of one attempt (web-awesome `bd`): message, else the trace's first line. */
export function shownRetryMessage(error: TestError | undefined): string | null {
  const message = shownText(error?.message)?.trim();
  if (message) return message;
  return (
    shownText(error?.trace)
      ?.split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '') ?? null
  );
}

export function attachmentName(link: AttachmentLink): string {
  return link.name || link.originalFileName || '';
}

function isStep(item: { type: string }): item is TestStep {
  return item.type === 'step';
}

/**
 * The test body's steps as the UI lists them, flattened with depth. A step's message is the
 * error the UI shows on it (web-awesome `oa`/`ra`/`ld`): the test's own error is placed under
 * the deepest step whose message (or trace) equals it, and that step shows the test's message;
 * any other step shows its own message unless a sub-step has a similar one. Attachments are
 * not steps.
 */
export function shownSteps(result: TestResult): RawStep[] {
  const testError = showsError(result.status, result.error) ? result.error : undefined;
  const testMessage = shownText(testError?.message);
  const steps: RawStep[] = [];

  // Returns whether the synthetic test-error node was placed in this subtree, like `ra`.
  const walk = (items: ReadonlyArray<{ type: string }>, depth: number): boolean => {
    let placed = false;
    for (const item of items) {
      if (!isStep(item)) continue;
      const entry: RawStep = { name: item.name, status: item.status ?? null, depth, message: null };
      steps.push(entry);
      const placedBelow = walk(item.steps ?? [], depth + 1);
      const hostsTestError = testError !== undefined && !placedBelow && sameError(item, testError);
      if (hostsTestError) entry.message = testMessage;
      else if (!item.hasSimilarErrorInSubSteps) entry.message = shownText(item.message);
      if (placedBelow || hostsTestError) placed = true;
    }
    return placed;
  };
  walk(result.steps, 0);
  return steps;
}

/** Whether the page shows an error block for a result (web-awesome `ta`). */
export function showsError(status: string, error: TestError | undefined): boolean {
  if (status !== 'failed' && status !== 'broken' && status !== 'skipped') return false;
  return stripped(error?.message) !== '' || stripped(error?.trace) !== '' || shownDiff(error) !== null;
}

/** web-awesome `na`: a failed/broken step repeats the test error when messages (or traces) match. */
function sameError(step: TestStep, error: TestError): boolean {
  if (step.status !== 'failed' && step.status !== 'broken') return false;
  const [stepMessage, errorMessage] = [stripped(step.message), stripped(error.message)];
  if (stepMessage && errorMessage) return stepMessage === errorMessage;
  const [stepTrace, errorTrace] = [stripped(step.trace), stripped(error.trace)];
  return stepTrace !== '' && errorTrace !== '' && stepTrace === errorTrace;
}

/** web-awesome `Qr`: ANSI stripped and trimmed, for comparisons only. */
function stripped(text: string | undefined): string {
  return typeof text === 'string' ? text.replace(ANSI, '').trim() : '';
}
