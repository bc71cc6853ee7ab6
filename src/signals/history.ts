import type { Citation } from '../schemas/index.ts';
import type { SignatureEntry, SignatureStore } from '../store/signatures/index.ts';

/** What the detectors ask of the signature history: the store, or a stand-in in tests. */
export type SignatureHistory = Pick<
  SignatureStore,
  'mainlineOccurrences' | 'otherChangeOccurrences' | 'outcomesAt'
>;

/** Runs a history citation names at most; the detail gives the total. */
export const MAX_HISTORY_CITES = 3;

/** A history row as a citation: which run, where, when — enough to find it again in the store. */
export function historyCite(entry: SignatureEntry): Citation {
  const where =
    entry.change === null
      ? `${entry.branch} mainline`
      : `change ${entry.change}${entry.patchset === null ? '' : `/${entry.patchset}`} on ${entry.branch}`;
  return {
    kind: 'signal',
    name: 'signature_history',
    detail: `${entry.outcome} in run ${entry.run_id} (${where}) at revision ${entry.revision.slice(0, 12)}, ${entry.seen_at}${
      entry.signature === null ? '' : `, signature ${entry.signature}`
    }`,
  };
}
