import { byName, type CodeSpan } from '../locate/anchor/index.ts';

/**
 * The parser's spans a draft may mean by `name`: its frame name (`Cart.total`) or lexical path
 * (`Cart.total.inner`) exactly, else by whole-segment suffix (`total`, `com.shop.Cart.total`)
 * as the locator matches frames. No receiver guessing and no edit distance. Several spans come
 * back when the name is ambiguous (overloads, same method name in two classes).
 */
export function findFunctions(spans: readonly CodeSpan[], name: string): CodeSpan[] {
  const exact = spans.filter((s) => s.name === name || s.qualified === name);
  return exact.length > 0 ? exact : byName(spans, name);
}
