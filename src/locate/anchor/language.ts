/** Languages whose grammars the anchor loads (prebuilt WASM files of tree-sitter-wasms). */
export const CODE_LANGUAGES = ['java', 'python', 'typescript', 'tsx', 'javascript', 'go', 'kotlin'] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/**
 * By extension only: report paths are hostile input and files are read from git objects, so
 * there is no shebang or content sniffing here. `.jsx` parses with the JavaScript grammar,
 * which accepts JSX; `.ts` must not, because `<T>x` casts are not JSX.
 */
const BY_EXTENSION: Readonly<Record<string, CodeLanguage>> = {
  java: 'java',
  py: 'python',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  go: 'go',
  kt: 'kotlin',
};

export function languageOfPath(path: string): CodeLanguage | null {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null;
}
