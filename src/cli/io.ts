import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseDataFile } from '../../scraper/source/index.ts';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { FactsDocument } from '../schemas/index.ts';

/** Command output goes to the named file (its folder made if needed) or, without one, to stdout. */
export function writeOutput(path: string | undefined, text: string): void {
  if (path === undefined) {
    process.stdout.write(text);
    return;
  }
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, text);
}

/** A file the user named, or INPUT_NOT_FOUND saying which (`what`: "facts", "diagnosis", …) and why. */
export function readInput(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err: unknown) {
    throw new DiagnosisError('INPUT_NOT_FOUND', `${what} ${path} could not be read: ${describeError(err)}`, {
      input: path,
      cause: err,
    });
  }
}

/** A facts document the user named, validated (the scraper's own output, or one edited by hand). */
export function readFacts(path: string): FactsDocument {
  return parseDataFile(readInput(path, 'facts'), FactsDocument, {
    where: `facts ${path}`,
    input: path,
    what: 'a facts document',
  });
}
