import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';

/**
 * What the source JUnit XML says, read here independently of the fixture platform's own loader:
 * every <testcase> anywhere in the document, in document order, whatever the nesting.
 */

export const JUNIT_DIR = 'test/fixtures/reports/junit';

export interface TruthCase {
  suite: string;
  /** Position of the case in its suite. */
  index: number;
  name: string;
  classname: string;
  time: number | null;
  kind: 'failure' | 'error' | null;
  message: string | null;
  body: string | null;
  output: string | null;
}

/** The files the platform shows: pytest, vitest, then surefire classes by name. */
function shownFiles(): string[] {
  const names = readdirSync(JUNIT_DIR);
  return [
    'pytest-junit.xml',
    'vitest-junit.xml',
    ...names.filter((n) => n.startsWith('surefire-') && n.endsWith('.xml')).sort(),
  ].filter((n) => names.includes(n));
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  alwaysCreateTextNode: true,
  isArray: (name) => !name.startsWith('@') && name !== '#text',
});

export function truthCases(): TruthCase[] {
  return shownFiles().flatMap((file) =>
    suitesIn(parser.parse(readFileSync(join(JUNIT_DIR, file)))).flatMap(casesOf),
  );
}

export function truthFailures(): TruthCase[] {
  return truthCases().filter((c) => c.kind !== null);
}

/** Suite elements holding testcases, at any depth. */
function suitesIn(node: unknown): Node[] {
  if (Array.isArray(node)) return node.flatMap(suitesIn);
  if (typeof node !== 'object' || node === null) return [];
  const n = node as Node;
  const own = Array.isArray(n.testcase) ? [n] : [];
  return [...own, ...Object.entries(n).flatMap(([k, v]) => (k === 'testcase' ? [] : suitesIn(v)))];
}

function casesOf(suite: Node): TruthCase[] {
  return (suite.testcase as Node[]).map((c, index) => {
    const failure = first(c.failure);
    const error = first(c.error);
    const problem = failure ?? error;
    const output = [textOf(first(c['system-out'])), textOf(first(c['system-err']))].filter(
      (t) => t.trim() !== '',
    );
    return {
      suite: String(suite['@name']),
      index,
      name: String(c['@name']),
      classname: String(c['@classname'] ?? ''),
      time: c['@time'] === undefined ? null : Number(c['@time']),
      kind: failure ? 'failure' : error ? 'error' : null,
      message: problem && typeof problem['@message'] === 'string' ? problem['@message'] : null,
      body: problem ? textOf(problem).trim() || null : null,
      output: output.length > 0 ? output.join('\n').trim() : null,
    };
  });
}

function first(value: unknown): Node | undefined {
  return Array.isArray(value) ? (value[0] as Node | undefined) : undefined;
}

function textOf(node: Node | undefined): string {
  const text = node?.['#text'];
  return Array.isArray(text) ? text.join('') : typeof text === 'string' ? text : '';
}

/** Property of the first suite that states it (surefire records the JVM and OS). */
export function truthProperty(name: string): string | null {
  for (const file of shownFiles()) {
    const xml = readFileSync(join(JUNIT_DIR, file), 'utf8');
    const match = xml.match(new RegExp(`<property name="${name.replace(/\./g, '\\.')}" value="([^"]*)"`));
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}

export function truthHostname(): string | null {
  for (const file of shownFiles()) {
    const match = readFileSync(join(JUNIT_DIR, file), 'utf8').match(/<testsuite\b[^>]*\bhostname="([^"]*)"/);
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}
