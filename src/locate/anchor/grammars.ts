import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CodeLanguage } from './language.ts';

/** Bytes of a tree-sitter grammar compiled to WASM for one language. */
export type GrammarLoader = (language: CodeLanguage) => Promise<Uint8Array>;

/**
 * The prebuilt grammars of `tree-sitter-wasms` (out/tree-sitter-<lang>.wasm). They load with
 * web-tree-sitter 0.25.x and not with 0.27 (shared/notes/tree-sitter.md): keep the two together.
 */
export function bundledGrammarPath(language: CodeLanguage): string {
  const pkg = createRequire(import.meta.url).resolve('tree-sitter-wasms/package.json');
  return join(dirname(pkg), 'out', `tree-sitter-${language}.wasm`);
}

export const readBundledGrammar: GrammarLoader = (language) => readFile(bundledGrammarPath(language));
