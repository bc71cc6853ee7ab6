import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { type ScanResult, scanFiles } from './scan.ts';
import { takeWithin } from './text.ts';
import { defineTool, type JsonObject, toolRefusal } from './tool.ts';

const Input = z.strictObject({
  query: z.string().min(1).max(LIMITS.maxQueryChars).describe('Text to find (literal unless regex is true).'),
  regex: z.boolean().default(false).describe('Treat query as a JavaScript regular expression.'),
  case_sensitive: z.boolean().default(true),
  path_prefix: z.string().optional().describe('Only files under this folder, e.g. "src/order/".'),
});

/** Search over files at the revision, bounded in hits, files, characters and time. */
export const searchCode = defineTool({
  name: 'search_code',
  description:
    'Search the files at the revision under review, line by line (literal text, or a regular ' +
    `expression with regex:true). Returns at most ${LIMITS.maxHits} hits as {file, line, text}; ` +
    'binary and very large files are skipped; "truncated" says the search stopped early (narrow it ' +
    'with path_prefix). Cite a hit as {kind:"code", file, lines:{start:line,end:line}}.',
  input: Input,
  run: async (ctx, input) => {
    const match = lineMatcher(input.query, { regex: input.regex, caseSensitive: input.case_sensitive });
    const scan = await scanFiles(ctx, { pathPrefix: input.path_prefix, match, maxHits: LIMITS.maxHits });
    return {
      query: input.query,
      regex: input.regex,
      path_prefix: input.path_prefix ?? null,
      ...describeScan(scan),
    };
  },
});

/** Hits and coverage of a scan, as a tool result. */
export function describeScan(scan: ScanResult): JsonObject {
  const hits = takeWithin(scan.hits, LIMITS.maxTextChars);
  return {
    hits: hits.kept.map((hit) => ({ ...hit })),
    files_total: scan.filesTotal,
    files_searched: scan.filesSearched,
    files_skipped: scan.filesSkipped,
    truncated: scan.stoppedBy !== null || hits.truncated,
    stopped_by: hits.truncated ? 'hits' : scan.stoppedBy,
  };
}

/** A predicate for one line: a literal `includes`, or a regex refused when it could backtrack without end. */
export function lineMatcher(
  query: string,
  options: { regex: boolean; caseSensitive: boolean },
): (line: string) => boolean {
  if (!options.regex) {
    if (options.caseSensitive) return (line) => line.includes(query);
    const lower = query.toLowerCase();
    return (line) => line.toLowerCase().includes(lower);
  }
  const risk = backtrackingRisk(query);
  if (risk !== null)
    throw toolRefusal(`regex refused: ${risk}; use a simpler pattern or a literal search`, query);
  let pattern: RegExp;
  try {
    pattern = new RegExp(query, options.caseSensitive ? '' : 'i');
  } catch (err: unknown) {
    throw toolRefusal(
      `not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`,
      query,
    );
  }
  return (line) => pattern.test(line);
}

/**
 * JavaScript regexes backtrack, and a model-written pattern is untrusted input (it may echo a
 * hostile log). Patterns with the classic exponential shapes are refused: a backreference, or a
 * quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|aa)*`).
 * Matching only the first MATCH_CHARS of a line (scan.ts) bounds what remains.
 */
export function backtrackingRisk(query: string): string | null {
  if (/\\[1-9]|\\k</.test(query)) return 'backreferences are not supported';
  const quantifiedGroup = /\((?:[^()\\]|\\.)*(?:[*+|]|\{\d)(?:[^()\\]|\\.)*\)(?:[*+]|\{\d)/;
  if (quantifiedGroup.test(query)) return 'a repeated group containing a repetition or alternation';
  if (/\)\)+(?:[*+]|\{\d)/.test(query)) return 'a repeated nested group';
  return null;
}
