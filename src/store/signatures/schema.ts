import { z } from 'zod';

export const Outcome = z.enum(['failed', 'passed']);
export type Outcome = z.infer<typeof Outcome>;

/**
 * One test's outcome in one CI run. A failure carries its signature; a pass has none (it is
 * only compared by test and revision, for pass/fail flips).
 */
export const SignatureEntry = z
  .strictObject({
    signature: z.string().min(1).nullable(),
    test_key: z.string().min(1),
    /** Gerrit project (repository) name. */
    project: z.string().min(1),
    /** The branch the run was for: the change's target branch, or the branch built. */
    branch: z.string().min(1),
    /** Gerrit change number; null for a run of the branch itself (mainline). */
    change: z.number().int().positive().nullable(),
    patchset: z.number().int().positive().nullable(),
    revision: z.string().min(1),
    outcome: Outcome,
    run_id: z.string().min(1),
    /** ISO 8601, when the run was seen (the report's scrape time, or the CI's). */
    seen_at: z.iso.datetime({ offset: true }),
  })
  .refine((e) => e.outcome === 'passed' || e.signature !== null, {
    message: 'a failed outcome needs its failure signature',
    path: ['signature'],
  })
  .refine((e) => e.change !== null || e.patchset === null, {
    message: 'a mainline run (change null) has no patchset',
    path: ['patchset'],
  });
export type SignatureEntry = z.infer<typeof SignatureEntry>;

/** Occurrences found by a query: how many in all, over how many changes, and the latest rows. */
export interface Occurrences {
  total: number;
  /** Distinct changes among them (0 on mainline). */
  changes: number;
  latest: SignatureEntry[];
}
