import { createHash } from 'node:crypto';
import type { Fact, Issue } from '../schemas/index.ts';

/** One substitution applied to a failure reason; `pattern` must be global. */
export interface Mask {
  pattern: RegExp;
  replace: string;
  /** Masks only the matches this accepts (for shapes a regex alone cannot tell). */
  accept?: (match: string) => boolean;
}

/** Hex digits of the sha256 a signature keeps: 64 bits, plenty for one project's history. */
export const SIGNATURE_LENGTH = 16;

/** Path characters: a path ends at whitespace, a quote, a colon (`file:12`, `path: reason`) or closing punctuation. */
const PATH_CHARS = String.raw`[^:\s'"\`,;()<>\[\]{}]`;
const PATH_SEGMENT = String.raw`[^:\s'"\`,;()<>\[\]{}/\\]*`;
/** Where a path may start: not in the middle of a word ("xtmp/" is no temp folder). */
const PATH_START = String.raw`(?<![\w.-])`;

/**
 * What changes between two runs of the same failure, in the order it is masked: whole shapes
 * (UUIDs, timestamps, paths) first, since masking their digits first would break them apart;
 * bare numbers last. The order is part of the signature: changing it changes every signature.
 */
export const DEFAULT_MASKS: readonly Mask[] = [
  {
    pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    replace: '<uuid>',
  },
  // ISO 8601 and the "2024-05-14 09:12:03,123" of Python and Java loggers.
  {
    pattern: /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g,
    replace: '<ts>',
  },
  // Java's Date.toString() and RFC 1123 (HTTP Date headers): "Tue Sep 17 10:00:00 UTC 2026".
  {
    pattern:
      /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? +(?:\d{1,2} +)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b(?: +\d{1,2}\b)?/g,
    replace: '<date>',
  },
  { pattern: /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/g, replace: '<date>' },
  { pattern: /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, replace: '<time>' },
  // pytest's tmp_path / tmpdir, wherever --basetemp put it.
  {
    pattern: new RegExp(
      String.raw`(?:[A-Za-z]:)?${PATH_CHARS}*pytest-of-[^\s/\\]+[/\\]pytest-\d+${PATH_CHARS}*`,
      'g',
    ),
    replace: '<tmp>',
  },
  // Windows temp folders: C:\Users\me\AppData\Local\Temp\…, C:\Windows\Temp\…, C:\Temp\….
  {
    pattern: new RegExp(
      String.raw`\b[A-Za-z]:\\(?:Users\\[^\\\s]+\\AppData\\Local\\Temp|Windows\\Temp|Temp|tmp)(?:\\${PATH_CHARS}*)?`,
      'gi',
    ),
    replace: '<tmp>',
  },
  // POSIX temp folders: /tmp, /var/tmp, macOS /var/folders/…, CI runner temp (…/_temp/…), and any
  // path below a tmp/temp folder (Gradle's build/tmp, Go's $TMPDIR/TestX123/001).
  {
    pattern: new RegExp(
      String.raw`${PATH_START}(?:(?:/private)?/var/folders/${PATH_CHARS}*|(?:${PATH_SEGMENT}/)*(?:tmp|temp|_temp)\b(?:/${PATH_CHARS}*)?)`,
      'gi',
    ),
    accept: (path) => path.includes('/'),
    replace: '<tmp>',
  },
  { pattern: /\b0x[0-9a-f]+\b/gi, replace: '<addr>' },
  // Java's default toString(): com.example.Order@1b6d3586.
  { pattern: /@[0-9a-f]{5,8}\b/gi, replace: '@<hash>' },
  { pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g, replace: '<ip>' },
  // Commit shas, trace and object ids: hex runs with at least one digit (so words like
  // "deadbeef" and "acceded" survive).
  { pattern: /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, replace: '<hex>' },
  // Tokens, keys and encoded payloads: see `looksEncoded` for what keeps identifiers out.
  { pattern: /[A-Za-z0-9+/_-]{20,}={0,2}/g, replace: '<b64>', accept: looksEncoded },
  // Standalone numbers, with a unit glued on ("500ms" → "<n>ms"); "utf8", "sha256", "v2" stay.
  { pattern: /(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*/g, replace: '<n>' },
];

/**
 * The failure reason with everything that differs between two runs of the same failure masked:
 * numbers, hex ids, UUIDs, temp paths, timestamps, base64-like runs, memory addresses, IPs (and
 * so ports: a port is a number). Project masks run first, since they know shapes the defaults
 * would cut into pieces (an order id "ORD-1001" is one thing to them, a word and a number to us).
 */
export function normaliseReason(text: string, extraMasks: readonly Mask[] = []): string {
  let out = text;
  for (const mask of extraMasks) out = applyMask(out, mask);
  for (const mask of DEFAULT_MASKS) out = applyMask(out, mask);
  return out.replace(/\s+/g, ' ').trim();
}

function applyMask(text: string, mask: Mask): string {
  const { accept } = mask;
  if (accept === undefined) return text.replace(mask.pattern, mask.replace);
  return text.replace(mask.pattern, (match) => (accept(match) ? mask.replace : match));
}

/**
 * A 20+ character run is taken as encoded data, not a name, when it ends in base64 padding, or
 * mixes digits with both cases and switches character class often: random text switches on most
 * characters, a camelCase or path name only at word boundaries ("AbstractProxyFactory2Bean" and
 * "src/main/java/com/example" stay).
 */
function looksEncoded(run: string): boolean {
  if (run.endsWith('=')) return true;
  if (!/\d/.test(run) || !/[a-z]/.test(run) || !/[A-Z]/.test(run)) return false;
  const cls = (c: string) => (/\d/.test(c) ? 0 : /[a-z]/.test(c) ? 1 : /[A-Z]/.test(c) ? 2 : 3);
  let switches = 0;
  for (let i = 1; i < run.length; i++) if (cls(run[i - 1] as string) !== cls(run[i] as string)) switches++;
  return switches / run.length >= 0.35;
}

/** The test's stable id: the report's key, else the full name, else the name. */
export function testKeyOf(issue: Pick<Issue, 'test'>): string {
  return issue.test.key || issue.test.full_name || issue.test.name;
}

/**
 * The first line of the failure reason: the error message, else the trace's first line, else
 * the status (a report that shows neither still fails the same way each time).
 */
export function firstErrorLine(issue: Pick<Issue, 'facts' | 'status'>): string {
  const error = firstNonEmpty(issue.facts, 'error');
  if (error !== null) return error;
  const trace = firstNonEmpty(issue.facts, 'trace');
  // The trace fact ends with "(N lines)", which is the builder's note, not the reason.
  if (trace !== null) return trace.replace(/ \(\d+ lines\)$/, '');
  return issue.status;
}

/**
 * The exception type the reason starts with: "java.lang.IllegalStateException",
 * "ValueError", "AssertionError" (of "AssertionError [ERR_ASSERTION]: …"), "panic".
 */
export function exceptionType(line: string): string | null {
  const text = line.replace(/^E\s+/, '').trim();
  if (/^panic:/.test(text)) return 'panic';
  const named = /^((?:[\w$]+\.)*[\w$]*(?:Error|Exception|Failure|Failed|Fault|Panic|Timeout|Refused))\b/.exec(
    text,
  );
  if (named) return named[1] as string;
  const prefixed = /^((?:[\w$]+\.)*[A-Z][\w$]*)(?: \[[\w-]+\])?:/.exec(text);
  return prefixed ? (prefixed[1] as string) : null;
}

/**
 * Failure signature: a short sha256 of the test key, the exception type and the normalised
 * first line of the reason. Equal signatures mean "the same test failing the same way".
 */
export function failureSignature(
  issue: Pick<Issue, 'test' | 'facts' | 'status'>,
  masks: readonly Mask[] = [],
): string {
  const line = firstErrorLine(issue);
  const parts = [testKeyOf(issue), exceptionType(line) ?? '', normaliseReason(line, masks)];
  return createHash('sha256').update(parts.join('\n'), 'utf8').digest('hex').slice(0, SIGNATURE_LENGTH);
}

function firstNonEmpty(facts: readonly Fact[], type: Fact['type']): string | null {
  for (const fact of facts) {
    if (fact.type !== type) continue;
    const line = fact.value.split('\n').find((l) => l.trim() !== '');
    if (line !== undefined) return line.trim();
  }
  return null;
}
