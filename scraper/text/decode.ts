import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface Decoded {
  text: string;
  /** Encoding the bytes were read as (lower-case iconv name). */
  encoding: string;
  /** True when the bytes were not valid UTF-8 and another encoding was detected. */
  converted: boolean;
}

/**
 * Decodes report bytes to UTF-8 text whatever their encoding. Valid UTF-8 wins outright;
 * otherwise a declared charset (Content-Type) is tried, then chardet's best guess. CJK logs
 * from internal CI machines are commonly GBK/GB18030, which chardet reports as GB18030.
 */
export function decodeBytes(body: Buffer, declaredCharset?: string): Decoded {
  if (isValidUtf8(body))
    return { text: stripBom(body.toString('utf8')), encoding: 'utf-8', converted: false };
  const candidates = [declaredCharset, chardet.detect(body) ?? undefined, 'gb18030', 'latin1'];
  for (const candidate of candidates) {
    const name = candidate?.toLowerCase();
    if (name === undefined || name === 'utf-8' || name === 'utf8' || !iconv.encodingExists(name)) continue;
    return { text: stripBom(iconv.decode(body, name)), encoding: name, converted: true };
  }
  return { text: body.toString('latin1'), encoding: 'latin1', converted: true };
}

/** The charset parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = contentType?.match(/charset=["']?([\w-]+)/i);
  return match?.[1];
}

function isValidUtf8(body: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch (err: unknown) {
    if (err instanceof TypeError) return false;
    throw err;
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
