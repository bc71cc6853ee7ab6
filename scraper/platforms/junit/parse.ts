import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DiagnosisError } from '../../../src/errors/index.ts';
import { charsetOf, decodeBytes } from '../../text/index.ts';
import { JunitDocument, type JunitTestSuite } from './schema.ts';

/** Elements that may repeat; made arrays always so one and many read the same. */
const REPEATED = new Set([
  'testsuite',
  'testcase',
  'failure',
  'error',
  'skipped',
  'rerunFailure',
  'rerunError',
  'flakyFailure',
  'flakyError',
  'stackTrace',
  'properties',
  'property',
  'system-out',
  'system-err',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Names and times stay strings: a test called "1e3" or a time of "0,012" must not be reinterpreted.
  parseTagValue: false,
  parseAttributeValue: false,
  // Traces and captured output keep their indentation; mappers trim what they show.
  trimValues: false,
  alwaysCreateTextNode: true,
  // Surefire and pytest escape control characters as numeric references (&#27; for ANSI colours,
  // &#10; for newlines in attributes): only the HTML entity decoder resolves numeric references.
  htmlEntities: true,
  isArray: (tagName, _path, _isLeaf, isAttribute) => !isAttribute && REPEATED.has(tagName),
});

export interface ParsedJunit {
  /** Top-level suites (a `<testsuites>` root's children, or the one root `<testsuite>`). */
  suites: JunitTestSuite[];
  /** `<testsuites name>` when present. */
  name: string | null;
}

/**
 * Bytes of one file -> its suites. `input` names the file in errors. Throws DiagnosisError:
 * EMPTY_REPORT for an empty file, MALFORMED_REPORT for XML that is not well-formed (with the
 * parser's line/column), NOT_A_REPORT for anything that is not JUnit XML.
 */
export function parseJunit(body: Buffer, input: string, contentType: string | null = null): ParsedJunit {
  const text = decodeBytes(body, charsetOf(contentType) ?? declaredEncoding(body)).text;
  if (text.trim() === '') {
    throw new DiagnosisError('EMPTY_REPORT', `JUnit report ${input} is empty (${body.length} bytes)`, {
      input,
    });
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    // A truncated JUnit file is a broken report; an HTML error page or JSON is not a report at all.
    const looksJunit = looksLikeJunit(text);
    throw new DiagnosisError(
      looksJunit ? 'MALFORMED_REPORT' : 'NOT_A_REPORT',
      looksJunit
        ? `JUnit report ${input} is not well-formed XML: ${msg} (${where})`
        : `${input} is not a JUnit XML report: not XML (${msg} at ${where})`,
      { input },
    );
  }
  const tree: unknown = parser.parse(text);
  const root = rootElement(tree);
  if (root !== 'testsuites' && root !== 'testsuite') {
    throw new DiagnosisError(
      'NOT_A_REPORT',
      `${input} is not a JUnit XML report: its root element is <${root ?? 'none'}>, expected <testsuites> or <testsuite>`,
      { input },
    );
  }
  const parsed = JunitDocument.safeParse(tree);
  if (!parsed.success) {
    throw new DiagnosisError(
      'MALFORMED_REPORT',
      `JUnit report ${input} has an unexpected structure: ${parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
        .join('; ')}`,
      { input, cause: parsed.error },
    );
  }
  const doc = parsed.data;
  if ('testsuites' in doc)
    return { suites: doc.testsuites.testsuite ?? [], name: doc.testsuites['@name'] ?? null };
  return { suites: doc.testsuite, name: null };
}

/**
 * Root check for detect(): the root element's name, or null when the bytes are not XML. A
 * broken file that starts like JUnit counts as JUnit, so that scraping it reports where it
 * breaks (MALFORMED_REPORT) rather than "not a report".
 */
export function junitRoot(body: Buffer): string | null {
  const text = decodeBytes(body, declaredEncoding(body)).text;
  if (XMLValidator.validate(text) !== true) return looksLikeJunit(text) ? 'testsuite' : null;
  return rootElement(parser.parse(text));
}

/** A substring test, not parsing: used only once the XML parser has refused the text. */
function looksLikeJunit(text: string): boolean {
  return text.slice(0, 4096).includes('<testsuite');
}

function rootElement(tree: unknown): string | null {
  if (typeof tree !== 'object' || tree === null) return null;
  // The parser lists the declaration and processing instructions as '?…' keys, and
  // whitespace between them as text.
  return Object.keys(tree).find((key) => !key.startsWith('?') && key !== '#text') ?? null;
}

/**
 * The `encoding` pseudo-attribute of the XML declaration, which the decoder needs before the
 * text can be parsed at all (ISO-8859-1 Surefire reports from old JVMs). This reads the
 * declaration's fixed syntax in the first bytes, not the document.
 */
function declaredEncoding(body: Buffer): string | undefined {
  const head = body.subarray(0, 200).toString('latin1');
  return /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
}
