/**
 * The engine's own notices to the model: mechanical turns of the tool protocol (submit now,
 * your submission did not parse, the checker's findings). Guidance on *how* to diagnose is the
 * Skill's (skills/test-repair/), sent as the system prompt; nothing here repeats it.
 */
export const NOTICE = {
  nudge: 'Call submit_diagnosis now with your diagnosis of this failure.',
  lastCall:
    'That was the last tool call this failure may use. Call submit_diagnosis now with what you have ' +
    'learned; list what is missing under missing_evidence.',
  budgetSpent:
    'The tool-call budget of this failure is spent. Call submit_diagnosis now with what you have ' +
    'learned; where the evidence does not decide, use need_evidence and list what is missing.',
  invalidSubmission: (problem: string) =>
    `The submission does not match the submit_diagnosis schema:\n${problem}\nCall submit_diagnosis again with a corrected diagnosis.`,
  repair: (findings: string) =>
    `The evidence checker rejected this diagnosis. Its findings:\n${findings}\n\n` +
    'Call submit_diagnosis once more with a repaired diagnosis.',
  notRun: 'Not run: the diagnosis was submitted in the same turn.',
} as const;
