/**
 * Bounds on what one tool result may carry. The model reads the run through these tools only,
 * so these numbers are what keeps whole files and logs out of the conversation (and the token
 * bill): a result never exceeds MAX_RESULT_CHARS of JSON, and says `truncated` when it stopped short.
 */
export const LIMITS = {
  /** Lines of a file, an evidence item or a diff one result may show. */
  maxLines: 200,
  /** Characters of one serialised result; the dispatcher refuses anything larger. */
  maxResultChars: 16_000,
  /** Characters of text (code, log lines) a tool packs before it stops and says `truncated`. */
  maxTextChars: 12_000,
  /** A longer single line (minified code, a JSON log record) is clipped to this. */
  maxLineChars: 400,
  /** Search hits and symbol references per result. */
  maxHits: 50,
  /** Files and bytes one search may read, so a search over a large repository stays bounded. */
  maxSearchFiles: 4_000,
  maxSearchChars: 24 * 1024 * 1024,
  /** Files larger than this are not searched (generated code, bundles, data dumps). */
  maxSearchFileChars: 512 * 1024,
  /** Wall time of one search; checked between files. */
  maxSearchMs: 3_000,
  /** Search patterns longer than this are refused. */
  maxQueryChars: 200,
  /** Files `find_symbol` parses for definitions (those where the name occurs). */
  maxSymbolFiles: 40,
  /** Entries of `list_change_files`. */
  maxChangeFiles: 200,
  /** Characters kept of a fact value or a location snippet in `get_issue_facts`. */
  maxFactChars: 300,
} as const;
