import { z } from 'zod';
import {
  ChangeAdvice,
  Claim,
  DiagnosisDraft,
  DiagnosisPlace,
  MissingEvidence,
  RootCause,
  Verdict,
} from '../schemas/index.ts';

/**
 * Output schemas of the Skill's stages (skills/test-repair/*.md name them in `output`). The
 * rules engine produces each of them; a model produces the last (DiagnosisDraft) through
 * `submit_diagnosis`, having worked through the others.
 */
export const ReadingNotes = z.object({
  observed: z.array(Claim),
  candidates: z.array(DiagnosisPlace),
  unknowns: z.array(z.string()),
});
export type ReadingNotes = z.infer<typeof ReadingNotes>;

export const LocationConfirmation = z.object({
  place: DiagnosisPlace,
  reasons: z.array(z.string()),
});
export type LocationConfirmation = z.infer<typeof LocationConfirmation>;

export const TriageOutcome = z.object({
  verdict: Verdict,
  because: z.array(Claim),
});
export type TriageOutcome = z.infer<typeof TriageOutcome>;

export const RootCauseChain = z.object({
  category: RootCause,
  /** In order, the earliest deviation last. */
  chain: z.array(Claim),
  alternatives: z.array(Claim),
  missing_evidence: z.array(MissingEvidence),
});
export type RootCauseChain = z.infer<typeof RootCauseChain>;

export const FixPlan = z.object({
  change: ChangeAdvice.nullable(),
  verify: z.array(z.string()),
});
export type FixPlan = z.infer<typeof FixPlan>;

export const Delegation = z.object({
  modules: z.array(z.object({ module: z.string(), files: z.array(z.string()) })),
});
export type Delegation = z.infer<typeof Delegation>;

/** Every schema a stage file may name as its output. */
export const STAGE_OUTPUTS = {
  ReadingNotes,
  LocationConfirmation,
  TriageOutcome,
  RootCauseChain,
  FixPlan,
  Delegation,
  DiagnosisDraft,
} as const;
export type StageOutputName = keyof typeof STAGE_OUTPUTS;
