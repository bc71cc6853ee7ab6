import { posix } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { describeError } from '../errors/index.ts';
import { type GitObjects, safeRepoPath } from '../git/index.ts';

export interface Original {
  file: string;
  line: number;
  reason: string;
}

const BUILT = /\.(c|m)?js$/;
const MAPPING_URL = /\/\/[#@] sourceMappingURL=([^\s'"]+)\s*$/;

/**
 * A frame in built JavaScript (`dist/cart.js:10`) mapped back to the source the repository
 * holds (`src/cart.ts:7`) through the build's source map, when the revision has one beside the
 * file or named by its `sourceMappingURL`. Inline (data:) maps and maps outside the repository
 * are not followed.
 */
export async function throughSourceMap(
  objects: GitObjects,
  rev: string,
  path: string,
  line: number | null,
  column: number | null,
): Promise<Original | { reason: string } | null> {
  if (!BUILT.test(path) || line === null) return null;
  const mapPath = await findMap(objects, rev, path);
  if (mapPath === null) return null;
  const text = await objects.readFile(rev, mapPath);
  if (text === null) return null;
  let consumer: SourceMapConsumer;
  try {
    consumer = new SourceMapConsumer(JSON.parse(text));
  } catch (err: unknown) {
    return { reason: `source map ${mapPath} could not be read (${describeError(err)})` };
  }
  const at = { line, column: Math.max(0, (column ?? 1) - 1) };
  let pos = consumer.originalPositionFor({ ...at, bias: SourceMapConsumer.GREATEST_LOWER_BOUND });
  if (pos.source === null)
    pos = consumer.originalPositionFor({ ...at, bias: SourceMapConsumer.LEAST_UPPER_BOUND });
  if (pos.source === null || pos.line === null)
    return { reason: `source map ${mapPath} has no mapping for line ${line}` };
  const root = (consumer as unknown as { sourceRoot?: string | null }).sourceRoot ?? '';
  const file = safeRepoPath(
    posix.normalize(posix.join(posix.dirname(mapPath), root, pos.source.replace(/^webpack:\/\/[^/]*\//, ''))),
  );
  if (file === null) return { reason: `source map ${mapPath} points outside the repository (${pos.source})` };
  return { file, line: pos.line, reason: `source map ${mapPath}: ${path}:${line} → ${file}:${pos.line}` };
}

async function findMap(objects: GitObjects, rev: string, path: string): Promise<string | null> {
  if (await objects.exists(rev, `${path}.map`)) return `${path}.map`;
  const built = await objects.readFile(rev, path);
  const url = built?.slice(-500).match(MAPPING_URL)?.[1];
  if (url === undefined || url.startsWith('data:')) return null;
  return safeRepoPath(posix.normalize(posix.join(posix.dirname(path), url)));
}
