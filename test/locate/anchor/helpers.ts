import { readFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import {
  type CodeParser,
  type CodeSpan,
  createCodeParser,
  type SpanKind,
} from '../../../src/locate/anchor/index.ts';

/**
 * Real source files of each language. TypeScript/JavaScript ones end in `.txt` so that tsc and
 * biome, which check everything under test/, leave these deliberately unbuildable files alone.
 */
export function fixture(name: string): string {
  return readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
}

/** One parser per test file, freed after it: each file sets up only what it uses. */
export function useParser(): () => CodeParser {
  let parser: CodeParser | null = null;
  beforeAll(async () => {
    parser = await createCodeParser();
  });
  afterAll(() => parser?.dispose());
  return () => {
    if (parser === null) throw new Error('parser not created yet: call inside a test');
    return parser;
  };
}

/** An expected span; `qualified` defaults to `name`. */
export function fn(kind: SpanKind, name: string, start: number, end: number, qualified = name): CodeSpan {
  return { name, qualified, kind, lines: { start, end } };
}
