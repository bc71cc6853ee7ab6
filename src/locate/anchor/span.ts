import type { FunctionSpan } from '../../schemas/index.ts';

/**
 * - `function`, `method`: definitions a frame can name.
 * - `constructor`: Java/Kotlin `<init>`, JS `constructor`.
 * - `initializer`: Java `static {}` (`<clinit>`), Kotlin `init {}` (part of `<init>`).
 * - `callback`: a function passed to a titled call such as `it('adds', () => …)` or Go's
 *   `t.Run("zero", func…)`. Frames print these as `<anonymous>` (JS) or as the subtest name
 *   (Go), but a test's failing line lives in one, so they anchor `enclosing()`.
 */
export type SpanKind = 'function' | 'method' | 'constructor' | 'initializer' | 'callback';

/**
 * A function found by the parser. `name` is how a stack frame of the language prints it, as
 * far as that can be known from the source (Java `Outer.Inner.method`, Python `inner`, Go
 * `Ledger.Post`); `qualified` is the lexical path (Python `Cart.total.inner`), which is what
 * `byName` matches frame text against. `lines` runs from the first decorator/annotation line to
 * the closing line, because that is the definition a diff can touch.
 */
export interface CodeSpan extends FunctionSpan {
  qualified: string;
  kind: SpanKind;
}
