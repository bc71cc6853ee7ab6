/**
 * Function truth for the benchmark, with the anchor module's parser (tree-sitter): the function
 * enclosing the sampled line at old (what the frame prints) and the one enclosing the truth line
 * at new. For a line that is gone, the truth function is the old one if exactly one function of
 * that name is still in the file at new (the best a locator can say then is `function`).
 * Cached under var/bench/locate/functions/, keyed by the sample set and the anchor sources.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BlobReader } from './git.ts';
import type { SampleSet } from './sample.ts';

export interface FunctionTruth {
  /** The anchor's name of the function enclosing the line at old, or null. */
  frame: string | null;
  /** The same as a stack frame of the language prints it (see `frameText`), or null. */
  frameText: string | null;
  /** The function the truth place is in at new, or null when there is none to find. */
  truth: string | null;
}

type Anchor = typeof import('../../src/locate/anchor/index.ts');
type Parser = import('../../src/locate/anchor/index.ts').CodeParser;
type CodeSpan = import('../../src/locate/anchor/index.ts').CodeSpan;

const ANCHOR_DIR = 'src/locate/anchor';

function anchorHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, name.name);
      if (name.isDirectory()) walk(p);
      else if (name.name.endsWith('.ts')) h.update(p).update(readFileSync(p));
    }
  };
  walk(ANCHOR_DIR);
  return h.digest('hex').slice(0, 16);
}

export async function functionTruth(
  set: SampleSet,
  gitDir: string,
  anchor: Anchor,
  parser: Parser,
): Promise<{ truths: FunctionTruth[]; cached: boolean; seconds: number }> {
  const key = `${set.key}:${anchorHash()}`;
  const file = join('var/bench/locate/functions', `${set.repo}.json`);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { key: string; truths: FunctionTruth[] };
    if (cached.key === key) return { truths: cached.truths, cached: true, seconds: 0 };
  }
  const started = performance.now();
  const blobs = new BlobReader(gitDir);
  const byText = new Map<string, CodeSpan[]>();
  const byPlace = new Map<string, Promise<CodeSpan[] | null>>();
  const spans = (rev: string, path: string): Promise<CodeSpan[] | null> => {
    const id = `${rev}:${path}`;
    let hit = byPlace.get(id);
    if (hit === undefined) {
      hit = (async () => {
        const language = anchor.languageOfPath(path);
        const text = await blobs.text(rev, path);
        if (text === null || !language) return null;
        const digest = createHash('sha1').update(path).update(text).digest('hex');
        let found = byText.get(digest);
        if (found === undefined) {
          found = await parser.functions(text, language);
          byText.set(digest, found);
        }
        return found;
      })();
      byPlace.set(id, hit);
    }
    return hit;
  };
  const truths: FunctionTruth[] = [];
  try {
    for (const s of set.samples) {
      const pair = set.pairs[s.pair];
      if (!pair) throw new Error(`sample of a missing pair ${s.pair}`);
      const oldSpans = (await spans(pair.old, s.path)) ?? [];
      const around = anchor.enclosing(oldSpans, s.line);
      const frame = around?.name ?? null;
      const frameText = around ? await frameName(around, s.path, () => blobs.text(pair.old, s.path)) : null;
      let truth: string | null = null;
      if (s.truth !== null) {
        truth = anchor.enclosing((await spans(pair.new, s.truth.path)) ?? [], s.truth.line)?.name ?? null;
      } else if (frame !== null && s.newPath !== null) {
        const atNew = (await spans(pair.new, s.newPath)) ?? [];
        truth = atNew.filter((f) => f.name === frame).length === 1 ? frame : null;
      }
      truths.push({ frame, frameText, truth });
    }
  } finally {
    blobs.close();
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ key, truths })}\n`);
  return { truths, cached: false, seconds: (performance.now() - started) / 1000 };
}

/**
 * How a runtime's stack frame names the function, as the scraper keeps it (scraper/stack/):
 * JVM `Outer$Inner.method`, Go `pkg.Type.Method` (import path dropped), Python the bare name,
 * V8 `Class.method` / `name` and nothing for an anonymous callback (`it('…', () => …)`).
 */
async function frameName(
  span: CodeSpan,
  path: string,
  text: () => Promise<string | null>,
): Promise<string | null> {
  if (path.endsWith('.java')) {
    const segments = span.name.split('.');
    const method = segments.pop() as string;
    return segments.length === 0 ? method : `${segments.join('$')}.${method}`;
  }
  if (path.endsWith('.go')) {
    if (span.kind === 'callback') return span.name;
    const pkg = /^package\s+(\w+)/m.exec((await text()) ?? '')?.[1];
    return pkg ? `${pkg}.${span.name}` : span.name;
  }
  if (span.kind === 'callback') return path.endsWith('.py') ? span.name : null;
  return span.name;
}
