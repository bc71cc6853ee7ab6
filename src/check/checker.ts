import type { Checker } from '../diagnose/index.ts';
import { checkDraft } from './check.ts';
import { degradeDraft } from './degrade.ts';
import { findingsForRepair } from './repair.ts';

/** The checker as the diagnosis pipeline takes it (src/diagnose `Checker`); a type-only dependency. */
export const evidenceChecker: Checker = {
  check: checkDraft,
  degrade: degradeDraft,
  describe: findingsForRepair,
};
