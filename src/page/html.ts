/**
 * The only way text enters the report page. Everything the page shows that came from a report,
 * a log, the code or a model is hostile: it is escaped by default, and a URL becomes a link only
 * when it is http(s). Markup is built with the `html` tag, whose interpolations are escaped unless
 * they are themselves `Html` built the same way.
 */

/** Markup that is safe to emit as is: built by `html`, or a trusted constant via `trusted`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Content = Html | string | number | null | undefined | false | readonly Content[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes for text content and for quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Bidi overrides and isolates (Trojan Source) and C0 controls but tab and newline. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we make visible
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
/** ANSI colour and cursor sequences, as CI logs are full of. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the sequences we drop
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Text as a reader should see it: terminal escape sequences dropped, and characters that would
 * render invisibly or reorder the line (bidi controls) shown by their code point instead.
 */
export function visible(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(
      INVISIBLE,
      (c) => `\u27e8U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}\u27e9`,
    );
}

function render(content: Content): string {
  if (content === null || content === undefined || content === false) return '';
  if (content instanceof Html) return content.value;
  if (typeof content === 'number') return String(content);
  if (typeof content === 'string') return escapeHtml(visible(content));
  return content.map(render).join('');
}

/** Template tag: literal parts are markup, interpolated values are escaped (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: Content[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** A trusted constant (our stylesheet); never for data. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/**
 * A URL from outside (a report, the facts, a model) as a link target: only absolute http(s)
 * URLs, normalised by the URL parser so quotes, spaces and control characters are encoded.
 */
export function externalUrl(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url.trim())) return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch (err: unknown) {
    if (err instanceof TypeError) return null;
    throw err;
  }
}

/** Our own URL (the page, the evidence form): an absolute http(s) URL or a root-relative path. */
export function ownUrl(url: string): string | null {
  if (!/^\/(?!\/)[^\s\\]*$/.test(url)) return externalUrl(url);
  const parsed = new URL(url, 'http://page.invalid');
  return `${parsed.pathname}${parsed.search}${parsed.hash}`;
}

/** A link when the URL is safe, the label alone otherwise. */
export function link(url: string | null, label: Content, attrs: { className?: string } = {}): Html {
  if (url === null) return html`${label}`;
  const cls = attrs.className === undefined ? '' : html` class="${attrs.className}"`;
  return html`<a href="${url}"${cls}>${label}</a>`;
}
