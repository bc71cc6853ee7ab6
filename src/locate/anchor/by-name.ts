import type { FunctionSpan } from '../../schemas/index.ts';
import { parseFrameFunction } from './frame-name.ts';
import type { CodeLanguage } from './language.ts';
import type { SpanKind } from './span.ts';

/** Spans from the parser carry `qualified` and `kind`; plain FunctionSpans are matched by `name`. */
export type NamedSpan = FunctionSpan & { qualified?: string; kind?: SpanKind };

export interface ByNameOptions {
  /**
   * The file's language. For JavaScript and TypeScript a frame's receiver is the runtime class
   * (`Object.load` for `Api.load`, `SubCart.add` for an inherited `Cart.add`), so when nothing
   * matches strictly the method name alone is matched.
   */
  language?: CodeLanguage;
}

const RUNTIME_RECEIVER: readonly CodeLanguage[] = ['javascript', 'typescript', 'tsx'];

/**
 * The spans a frame's function text names, by suffix on name segments: `com.x.Invoice.total`
 * and `Invoice.total` name `Invoice.total`; `add` names `Cart.add` and a top-level `add`.
 * Among matches only those sharing the most segments with the frame are kept
 * (`main.(*Ledger).Post` names `Ledger.Post`, not a function `Post`); the rest of the
 * ambiguity is returned whole for the caller to judge. `<anonymous>`, `<module>` and
 * `<lambda>` name nothing: no match.
 */
export function byName<T extends NamedSpan>(
  spans: readonly T[],
  frameFunction: string,
  options: ByNameOptions = {},
): T[] {
  const frame = parseFrameFunction(frameFunction);
  if (frame === null) return [];
  if (frame.subtest !== null) {
    const subtests = spans.filter((s) => s.kind === 'callback' && s.name === frame.subtest);
    if (subtests.length > 0) return subtests;
  }
  const named = spans.filter((s) => s.kind !== 'callback');
  const strict = longestSuffixMatches(named, frame.paths);
  if (strict.length > 0 || options.language === undefined || !RUNTIME_RECEIVER.includes(options.language)) {
    return strict;
  }
  const last = new Set(frame.paths.map((path) => path.at(-1)));
  return named.filter((s) => last.has(segmentsOf(s).at(-1)));
}

function longestSuffixMatches<T extends NamedSpan>(spans: readonly T[], paths: readonly string[][]): T[] {
  let best = 0;
  let matches: T[] = [];
  for (const span of spans) {
    const shared = Math.max(...paths.map((path) => suffixShared(path, segmentsOf(span))));
    if (shared === 0 || shared < best) continue;
    if (shared > best) {
      best = shared;
      matches = [];
    }
    matches.push(span);
  }
  return matches;
}

/** How many trailing segments agree when one path is a suffix of the other, else 0. */
function suffixShared(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 1; i <= length; i++) {
    if (a[a.length - i] !== b[b.length - i]) return 0;
  }
  return length;
}

function segmentsOf(span: NamedSpan): string[] {
  return (span.qualified ?? span.name).split('.');
}
