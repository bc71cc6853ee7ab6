/**
 * Code-structure and snippet anchoring for the locator: which functions a file at a revision
 * defines (tree-sitter), which of them a frame names, which one encloses a line, and where a
 * reported source line is now.
 */
export { type ByNameOptions, byName, type NamedSpan } from './by-name.ts';
export { enclosing } from './enclosing.ts';
export { type FrameName, parseFrameFunction } from './frame-name.ts';
export { bundledGrammarPath, type GrammarLoader, readBundledGrammar } from './grammars.ts';
export { CODE_LANGUAGES, type CodeLanguage, languageOfPath } from './language.ts';
export { type CodeParser, type CodeParserOptions, createCodeParser } from './parser.ts';
export {
  CLEAR_LEAD,
  findSnippet,
  MIN_SNIPPET_SCORE,
  type PreparedLines,
  prepareLines,
  type SnippetMatch,
  type SnippetOptions,
  type SnippetResult,
} from './snippet.ts';
export { isTrivialSnippet, normalizeCode } from './snippet-text.ts';
export type { CodeSpan, SpanKind } from './span.ts';
