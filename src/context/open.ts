import type { DiffSource, GitObjects } from '../git/index.ts';
import type { CodeParser } from '../locate/anchor/index.ts';
import type { FactsDocument } from '../schemas/index.ts';
import { type DiagnosisContext, type EvidenceReader, revisionCode } from './context.ts';

export interface ContextDeps {
  objects: GitObjects;
  diffs: DiffSource;
  parser: CodeParser;
  evidence: EvidenceReader;
}

/**
 * The context of one run: the revision is made present (fetched if the objects lack it), the
 * base defaults to its first parent, and the change's diff is read once for every later stage.
 */
export async function openContext(
  deps: ContextDeps,
  facts: FactsDocument,
  target: { revision: string; base?: string | null },
): Promise<DiagnosisContext> {
  const revision = await deps.objects.ensure(target.revision);
  const base = target.base === undefined ? ((await deps.objects.parents(revision))[0] ?? null) : target.base;
  const diff = base === null ? [] : await deps.diffs.diff(await deps.objects.ensure(base), revision);
  return {
    facts,
    revision,
    message: (await deps.objects.commit(revision)).message,
    base,
    code: revisionCode(deps.objects, deps.parser, revision),
    baseCode: base === null ? null : revisionCode(deps.objects, deps.parser, base),
    diff,
    evidence: deps.evidence,
  };
}
