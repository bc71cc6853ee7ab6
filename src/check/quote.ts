/**
 * True when `quote` appears verbatim in `lines`. Verbatim means the exact characters; the one
 * allowance is whitespace at the ends of lines (indentation, `\r`, a trailing blank), because
 * tools and models re-indent. Nothing else is forgiven: no case folding, no collapsed inner
 * spaces, no ellipses, no edit distance — a quote that needs any of that was not read.
 */
export function quoteIn(quote: string, lines: readonly string[]): boolean {
  if (lines.join('\n').includes(quote)) return true;
  const wanted = trimmedLines(quote.split(/\r?\n/));
  return wanted !== '' && trimmedLines(lines).includes(wanted);
}

/** A quote of nothing but whitespace proves nothing. */
export function isBlankQuote(quote: string): boolean {
  return quote.trim() === '';
}

function trimmedLines(lines: readonly string[]): string {
  return lines
    .map((line) => line.trim())
    .join('\n')
    .trim();
}
