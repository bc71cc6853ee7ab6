import type { Claim, DiagnosisDraft } from '../schemas/index.ts';

/** A claim of the draft and where it sits, e.g. `why.2`, `change.advice`, `alternatives.0`. */
export interface PlacedClaim {
  path: string;
  claim: Claim;
}

/** Every statement of a draft that must rest on citations: the causal chain, the fix plan, the alternatives. */
export function claimsOf(draft: Pick<DiagnosisDraft, 'why' | 'change' | 'alternatives'>): PlacedClaim[] {
  const claims: PlacedClaim[] = draft.why.map((claim, i) => ({ path: `why.${i}`, claim }));
  if (draft.change !== null) {
    claims.push({ path: 'change.advice', claim: draft.change.advice });
    if (draft.change.rationale !== null)
      claims.push({ path: 'change.rationale', claim: draft.change.rationale });
  }
  draft.alternatives.forEach((claim, i) => {
    claims.push({ path: `alternatives.${i}`, claim });
  });
  return claims;
}
