import type { Node } from 'web-tree-sitter';
import type { CodeLanguage } from '../language.ts';
import type { CodeSpan } from '../span.ts';
import { goRules } from './go.ts';
import { javaRules } from './java.ts';
import { javascriptRules } from './javascript.ts';
import { kotlinRules } from './kotlin.ts';
import { pythonRules } from './python.ts';
import { collectSpans, type SpanRules } from './walk.ts';

const RULES: Readonly<Record<CodeLanguage, SpanRules>> = {
  java: javaRules,
  python: pythonRules,
  typescript: javascriptRules,
  tsx: javascriptRules,
  javascript: javascriptRules,
  go: goRules,
  kotlin: kotlinRules,
};

/** Every function-like definition under `root`, in document order. */
export function extractSpans(root: Node, language: CodeLanguage): CodeSpan[] {
  return collectSpans(root, RULES[language]);
}
