import type { Language } from '../../src/schemas/facts.ts';

/** Test identity and project knowledge that help pick the `test` and `failure` frames. */
export interface StackHints {
  /** test identity from the report, used to find the test's own frame */
  testName?: string;
  testFullName?: string;
  testFile?: string;
  /** path fragments or package prefixes known to be project code, e.g. ['com.example', 'src/'] (optional) */
  projectPrefixes?: string[];
  /** extra path fragments or package prefixes to treat as library code, added to each language's defaults */
  libraryPrefixes?: string[];
}

/** One frame as a dialect parser read it, before path normalisation and roles. */
export interface ParsedFrame {
  /** The path exactly as the trace printed it. */
  rawFile: string;
  line: number | null;
  column: number | null;
  /** Short display name, e.g. `Invoice.total`, `cart.(*Cart).Add`. */
  function: string | null;
  /** Fully qualified symbol when the trace gives one (Java class + method, Go package path + func). */
  qualified: string | null;
  snippet: string | null;
  /** Which exception, cause or goroutine block of the trace the frame belongs to. */
  section: number;
  /** Position in the trace as printed; gaps appear when a long trace is cut. */
  printedIndex: number;
}

/** A parsed frame whose path has been normalised, ready to classify. */
export interface Frame extends ParsedFrame {
  file: string;
}

/**
 * A parsed trace. Printed order is kept in `frames`; the two orders below are the
 * throw order (closest to the raise first), which differs by language.
 */
export interface ParsedTrace {
  frames: ParsedFrame[];
  /** Frame indices that may hold the failure, root cause first, innermost first. */
  failureOrder: number[];
  /** Every frame index in throw order (failureOrder, then secondary sections like `Suppressed:`). */
  searchOrder: number[];
}

/** What a language knows about its own traces. */
export interface Dialect {
  language: Language;
  /** `hints` name the test when the trace itself does not (a `go test` log line without its `=== RUN` header). */
  parse(lines: readonly string[], hints?: StackHints): ParsedTrace;
  /** Runtime or third-party frame, by the language's defaults. */
  isLibrary(frame: Frame): boolean;
  /** Frame in test code by naming convention (test file, test class). */
  isTestCode(frame: Frame): boolean;
  /** Function looks like a test entry point by convention (`test_*`, `TestFoo`). */
  isTestFunction(frame: Frame): boolean;
}
