import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Command output goes to the named file (its folder made if needed) or, without one, to stdout. */
export function writeOutput(path: string | undefined, text: string): void {
  if (path === undefined) {
    process.stdout.write(text);
    return;
  }
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, text);
}
