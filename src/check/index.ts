/**
 * The evidence checker: every claim cited, every cited place present at the revision, no advice
 * that only turns CI green, no code fix for the environment, no verdict overturned without
 * evidence — and the deterministic degrade for what still fails after the repair round.
 */
export { checkDraft } from './check.ts';
export { evidenceChecker } from './checker.ts';
export { claimsOf, type PlacedClaim } from './claims.ts';
export { degradeDraft } from './degrade.ts';
export { scanEdit } from './greening/edit.ts';
export { GREENING_RULES, type GreeningKind, type GreeningRule } from './greening/rules.ts';
export { type GreeningHit, scanText } from './greening/scan.ts';
export type { CheckInput } from './input.ts';
export { instructionIn } from './instruction.ts';
export { quoteIn } from './quote.ts';
export { findingsForRepair } from './repair.ts';
