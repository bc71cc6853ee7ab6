import { DiagnosisError } from '../../errors/index.ts';
import type { FactsDocument } from '../../schemas/index.ts';
import { failureSignature, type Mask, testKeyOf } from '../../signals/signature.ts';
import type { SignatureEntry } from './schema.ts';
import type { SignatureStore } from './store.ts';

/** Where a facts document's run belongs; unset fields fall back to what the facts say. */
export interface FeedMeta {
  run_id: string;
  branch: string;
  /** Gerrit change number; null for a run of the branch itself (mainline). */
  change: number | null;
  /** Default: the facts' run.repository. */
  project?: string;
  /** Default: the facts' run.patchset (ignored on mainline). */
  patchset?: number | null;
  /** Default: the facts' run.revision_sha. */
  revision?: string;
  /** Default: the facts' run.scraped_at. */
  seen_at?: string;
  /** The same masks triage uses for this project, or signatures will not match. */
  masks?: readonly Mask[];
  /**
   * Test keys known to have passed in this run (e.g. from a re-run job's full results): the
   * facts list failures only, so a pass is recorded only when the caller knows it.
   */
  passed?: readonly string[];
}

/**
 * Feeds a facts document into the store: one failed outcome per issue (with its signature),
 * and the given passes. Earlier runs and target-branch reports are fed the same way, which is
 * what makes "pre-existing" and "flips at one revision" answerable later.
 */
export function recordFacts(
  store: SignatureStore,
  facts: FactsDocument,
  meta: FeedMeta,
): { recorded: number; skipped: number } {
  const project = required(meta.project ?? facts.run.repository, 'project', facts);
  const revision = required(meta.revision ?? facts.run.revision_sha, 'revision', facts);
  const base = {
    project,
    branch: meta.branch,
    change: meta.change,
    patchset: meta.change === null ? null : (meta.patchset ?? facts.run.patchset),
    revision,
    run_id: meta.run_id,
    seen_at: meta.seen_at ?? facts.run.scraped_at,
  };
  const failed = facts.issues.map(
    (issue): SignatureEntry => ({
      ...base,
      signature: failureSignature(issue, meta.masks ?? []),
      test_key: testKeyOf(issue),
      outcome: 'failed',
    }),
  );
  const failedKeys = new Set(failed.map((e) => e.test_key));
  // A test both failed and "passed" in one run is a failure of that run: the failure is what the report shows.
  const passed = (meta.passed ?? [])
    .filter((key) => !failedKeys.has(key))
    .map((key): SignatureEntry => ({ ...base, signature: null, test_key: key, outcome: 'passed' }));
  const entries = [...failed, ...passed];
  const recorded = store.recordAll(entries);
  return { recorded, skipped: entries.length - recorded };
}

function required(value: string | null, field: string, facts: FactsDocument): string {
  if (value !== null && value !== '') return value;
  throw new DiagnosisError(
    'INVALID_ARGUMENT',
    `cannot record the signatures of ${facts.run.report_url}: no ${field} given and the facts name none`,
    { input: facts.run.report_url },
  );
}
