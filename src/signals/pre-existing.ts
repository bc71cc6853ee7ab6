import type { Issue, Signal } from '../schemas/index.ts';
import type { Occurrences } from '../store/signatures/index.ts';
import { historyCite, MAX_HISTORY_CITES, type SignatureHistory } from './history.ts';

export interface PreExistingFinding {
  /**
   * `mainline`: the target branch itself failed this way, without any change. `other_changes`:
   * other changes did — weaker, since two changes can break one test the same way.
   */
  scope: 'mainline' | 'other_changes';
  occurrences: number;
  changes: number;
  signal: Signal;
}

export interface PreExistingDeps {
  signatures: SignatureHistory | null;
  signature: string;
  project: string;
  branch: string;
  change: number | null;
  runId: string;
  revision: string;
}

/**
 * The same failure signature seen without this change: on the target branch's mainline (at
 * another revision: a mainline run of this very revision is this change merged), or on other
 * changes (any patchset of this change is left out).
 */
export function preExistingFindings(_issue: Issue, deps: PreExistingDeps): PreExistingFinding[] {
  const store = deps.signatures;
  if (store === null) return [];
  const mainline = store.mainlineOccurrences({
    signature: deps.signature,
    project: deps.project,
    branch: deps.branch,
    excludeRevision: deps.revision,
    excludeRunId: deps.runId,
  });
  const others = store.otherChangeOccurrences({
    signature: deps.signature,
    project: deps.project,
    change: deps.change,
    excludeRunId: deps.runId,
  });
  return [
    ...finding('mainline', mainline, `occurs on ${deps.branch} mainline`),
    ...finding('other_changes', others, 'occurs on other changes'),
  ];
}

export function preExistingSignals(issue: Issue, deps: PreExistingDeps): Signal[] {
  return preExistingFindings(issue, deps).map((f) => f.signal);
}

function finding(
  scope: PreExistingFinding['scope'],
  found: Occurrences,
  where: string,
): PreExistingFinding[] {
  if (found.total === 0) return [];
  const spread = scope === 'other_changes' ? ` (${found.changes} change(s))` : '';
  return [
    {
      scope,
      occurrences: found.total,
      changes: found.changes,
      signal: {
        kind: 'pre_existing',
        detail: `the same failure signature ${where}: ${found.total} earlier failure(s)${spread}, latest ${found.latest[0]?.seen_at ?? ''}`,
        cites: found.latest.slice(0, MAX_HISTORY_CITES).map(historyCite),
      },
    },
  ];
}
