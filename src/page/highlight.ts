import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHtml, Html, visible } from './html.ts';

/**
 * Server-side syntax highlighting with highlight.js (core plus the languages our projects are
 * written in, so the page loads no script and the process no grammar it never uses). The
 * result is cut into lines so every line can carry its number and link.
 */
const LANGUAGES = { bash, go, java, javascript, json, kotlin, python, typescript, xml, yaml };
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);

const BY_EXTENSION: Readonly<Record<string, keyof typeof LANGUAGES>> = {
  py: 'python',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  go: 'go',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  json: 'json',
  xml: 'xml',
  html: 'xml',
  yml: 'yaml',
  yaml: 'yaml',
  sh: 'bash',
};

/** The highlight.js language for a path, by extension only (paths come from reports). */
export function languageOf(path: string): string | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? null : (BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? null);
}

/** What highlight.js emits: class-only spans and escaped text. Anything else means plain text. */
const TOKEN = /<span class="([A-Za-z0-9_ -]+)">|<\/span>|[^<]+|</g;

/**
 * Source text as one `Html` per line, highlighted when the language is known. Spans that cross a
 * line end (block comments, multi-line strings) are closed at the end of the line and reopened
 * on the next, so each line is balanced markup on its own.
 */
export function highlightLines(text: string, language: string | null): Html[] {
  const source = visible(text);
  const plain = () => source.split('\n').map((line) => new Html(escapeHtml(line)));
  if (language === null || hljs.getLanguage(language) === undefined) return plain();
  const marked = hljs.highlight(source, { language, ignoreIllegals: true }).value;
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  for (const match of marked.matchAll(TOKEN)) {
    const token = match[0];
    if (token === '<') return plain();
    if (match[1] !== undefined) {
      open.push(token);
      current += token;
    } else if (token === '</span>') {
      if (open.pop() === undefined) return plain();
      current += token;
    } else {
      const parts = token.split('\n');
      current += parts[0];
      for (const part of parts.slice(1)) {
        lines.push(current + '</span>'.repeat(open.length));
        current = open.join('') + part;
      }
    }
  }
  lines.push(current);
  return lines.map((line) => new Html(line));
}
