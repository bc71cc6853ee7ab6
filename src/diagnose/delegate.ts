import type { Logger } from 'pino';
import type { DiagnosisContext } from '../context/index.ts';
import { isTestPath } from '../engines/rules/index.ts';
import { isDiagnosisError } from '../errors/index.ts';
import type { DiagnosisDraft, Issue, Triage, Usage } from '../schemas/index.ts';
import { chainModules, type ModuleMap } from '../skill/index.ts';
import { addUsage, type Engine } from './ports.ts';

/** Sub-diagnoses per run of one failure at most: delegation is for chains that cross a few modules. */
const MAX_MODULES = 3;

/**
 * Stage `delegate`: only when the draft's causal chain crosses production modules, each module's
 * part is examined in its own conversation and the cited claims it adds are merged into the
 * chain (the checker then vets the merged draft like any other). One module: nothing happens.
 */
export async function delegateAcrossModules(
  draft: DiagnosisDraft,
  input: { issue: Issue; triage: Triage; ctx: DiagnosisContext },
  deps: { engine: Engine; modules: ModuleMap; log: Pick<Logger, 'warn'> },
): Promise<{ draft: DiagnosisDraft; usage: Usage | null; modules: string[] }> {
  const delegate = deps.engine.delegate;
  const modules = [...chainModules(draft, deps.modules, isTestPath)];
  if (delegate === undefined || modules.length < 2) return { draft, usage: null, modules: [] };
  let merged = draft;
  let usage: Usage | null = null;
  for (const [name, files] of modules.slice(0, MAX_MODULES)) {
    try {
      const sub = await delegate.call(deps.engine, input.issue, input.triage, input.ctx, { name, files });
      usage = usage === null ? sub.usage : addUsage(usage, sub.usage);
      if (sub.draft !== null) merged = mergeClaims(merged, sub.draft);
    } catch (err: unknown) {
      if (!isDiagnosisError(err) || !['MODEL_ERROR', 'MODEL_REPLY_INVALID'].includes(err.code)) throw err;
      deps.log.warn(
        { issue: input.issue.id, module: name, err: err.message },
        'sub-diagnosis failed; the main draft stands',
      );
    }
  }
  return { draft: merged, usage, modules: modules.map(([name]) => name) };
}

/** New cited claims of a sub-diagnosis join the chain before its last step (the earliest deviation). */
function mergeClaims(draft: DiagnosisDraft, sub: DiagnosisDraft): DiagnosisDraft {
  const known = new Set(draft.why.map((c) => c.text));
  const added = sub.why.filter((c) => c.cites.length > 0 && !known.has(c.text));
  if (added.length === 0) return draft;
  const last = draft.why.at(-1);
  const chain = last === undefined ? added : [...draft.why.slice(0, -1), ...added, last];
  return { ...draft, why: chain };
}
