import { z } from 'zod';
import type { DiagnosisContext } from '../context/index.ts';
import { byName, type CodeSpan, languageOfPath } from '../locate/anchor/index.ts';
import { LIMITS } from './limits.ts';
import { type ScanHit, scanFiles } from './scan.ts';
import { takeWithin } from './text.ts';
import { defineTool, type JsonObject, toolRefusal } from './tool.ts';

const Input = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(LIMITS.maxQueryChars)
    .describe('A function or method name as code or a stack frame writes it: "create_order", "Cart.total".'),
  path_prefix: z.string().optional().describe('Only files under this folder.'),
});

/** Occurrences scanned to find the files that may define the symbol; more than the hits shown. */
const SCAN_HITS = 400;
const MAX_DEFINITIONS = 20;
const IDENTIFIER = /[A-Za-z_$][\w$]*$/;

interface Definition {
  file: string;
  name: string;
  qualified: string;
  kind: string;
  lines: { start: number; end: number };
}

/**
 * Where a function is defined (the tree-sitter spans of ctx.code.functions, matched the way a
 * stack frame names them) and where its name occurs otherwise (a word search). Only files that
 * contain the name are parsed, so the cost follows the name's spread, not the repository's size.
 */
export const findSymbol = defineTool({
  name: 'find_symbol',
  description:
    'Definitions of a function or method (found by a real parser, with their line spans) and ' +
    `references to it (word matches, at most ${LIMITS.maxHits}) at the revision under review. ` +
    'Classes, constants and fields have no definition entry; look for them among the references. ' +
    'Cite as {kind:"code", file, lines}.',
  input: Input,
  run: async (ctx, input) => {
    const identifier = IDENTIFIER.exec(input.name.replace(/[()\s]+$/, ''))?.[0];
    if (identifier === undefined)
      throw toolRefusal(`"${input.name}" does not end in an identifier`, input.name);
    const word = new RegExp(`(?:^|[^\\w$])${identifier.replace(/\$/g, '\\$')}(?:$|[^\\w$])`);
    const scan = await scanFiles(ctx, {
      pathPrefix: input.path_prefix,
      match: (line) => word.test(line),
      maxHits: SCAN_HITS,
    });
    const files = [...new Set(scan.hits.map((hit) => hit.file))];
    const definitions = await definitionsIn(ctx, files.slice(0, LIMITS.maxSymbolFiles), input.name);
    const others = withoutDefinitionLines(scan.hits, definitions);
    const references = takeWithin(others.slice(0, LIMITS.maxHits), LIMITS.maxTextChars - 2_000);
    return {
      name: input.name,
      definitions: definitions.slice(0, MAX_DEFINITIONS).map((d) => ({ ...d, lines: { ...d.lines } })),
      references: references.kept.map((hit) => ({ ...hit })),
      files_with_name: files.length,
      truncated:
        scan.stoppedBy !== null ||
        files.length > LIMITS.maxSymbolFiles ||
        definitions.length > MAX_DEFINITIONS ||
        others.length > LIMITS.maxHits ||
        references.truncated,
    } satisfies JsonObject;
  },
});

async function definitionsIn(
  ctx: DiagnosisContext,
  files: readonly string[],
  name: string,
): Promise<Definition[]> {
  const found: Definition[] = [];
  for (const file of files) {
    const language = languageOfPath(file);
    if (language === null) continue;
    const spans: readonly CodeSpan[] = await ctx.code.functions(file);
    for (const span of byName(spans, name, { language })) {
      found.push({ file, name: span.name, qualified: span.qualified, kind: span.kind, lines: span.lines });
    }
  }
  return found;
}

/** Drops the line of each definition that names it (its first occurrence inside the span). */
function withoutDefinitionLines(hits: readonly ScanHit[], definitions: readonly Definition[]): ScanHit[] {
  const skip = new Set<ScanHit>();
  for (const d of definitions) {
    const own = hits.find((h) => h.file === d.file && h.line >= d.lines.start && h.line <= d.lines.end);
    if (own !== undefined) skip.add(own);
  }
  return hits.filter((hit) => !skip.has(hit));
}
