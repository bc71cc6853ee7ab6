/**
 * Gerrit renders comments and change messages as markdown, linkifies URLs and notifies
 * @-mentioned accounts. Text that came from logs, reports or code must render exactly as written
 * and never as a link, an image or a mention: these helpers are the only way such text enters a
 * message.
 */

/** Zero-width space: invisible, but breaks the patterns Gerrit's linkifier and mention parser look for. */
const ZWSP = '\u200b';

/** Characters that start or close markdown constructs (links, images, emphasis, code, HTML, tables). */
const MARKDOWN_SPECIAL = /[\\`*_[\]<>!|~]/g;

/** Breaks URL schemes, bare `www.` hosts and `@name` mentions without changing what a reader sees. */
export function defang(text: string): string {
  return text
    .replace(/:\/\//g, `:${ZWSP}//`)
    .replace(/\b(www)\./gi, `$1${ZWSP}.`)
    .replace(/@(?=\S)/g, `@${ZWSP}`);
}

/** Shortens to at most `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Untrusted text as one inline markdown run: whitespace collapsed, constructs escaped, links broken. */
export function inlineText(text: string, max = 400): string {
  const flat = clip(text.replace(/\s+/g, ' ').trim(), max);
  return defang(flat)
    .replace(MARKDOWN_SPECIAL, '\\$&')
    .replace(/^([#+-]|\d+[.)])(?=\s)/, '\\$1');
}

/** An identifier or path as inline code; the fence is longer than any backtick run inside. */
export function inlineCode(text: string, max = 200): string {
  const flat = clip(text.replace(/\s+/g, ' ').trim(), max);
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${defang(flat)}${pad}${fence}`;
}

/** A fenced code block (markdown is not rendered inside; links and mentions are still broken). */
export function codeBlock(text: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  const body = defang(text.replace(/\s+$/, ''));
  return `${fence}${language.replace(/[^A-Za-z0-9+#-]/g, '')}\n${body}\n${fence}`;
}

/** A link whose URL we trust (our own page, the CI's report) with an untrusted label. */
export function link(label: string, url: string): string {
  if (!/^https?:\/\/[^\s]+$/i.test(url)) return inlineText(label, 120);
  return `[${inlineText(label, 120)}](${url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
