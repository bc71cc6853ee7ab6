import { z } from 'zod';

export const StepKind = z.enum([
  'request',
  'retry',
  'reply',
  'tool',
  'submit',
  'correction',
  'nudge',
  'repair',
  'budget',
  'error',
]);
export type StepKind = z.infer<typeof StepKind>;

/** One line of the step log kept with a diagnosis: what happened, when, in a sentence. */
export const TranscriptStep = z.object({
  /** Milliseconds since the round started. */
  at_ms: z.number().nonnegative(),
  kind: StepKind,
  detail: z.string(),
});
export type TranscriptStep = z.infer<typeof TranscriptStep>;

const DETAIL_CHARS = 240;

/** A short step log: details are clipped, so the log never carries whole tool results or drafts. */
export class Transcript {
  readonly steps: TranscriptStep[] = [];

  constructor(
    private readonly now: () => number,
    private readonly started: number,
  ) {}

  add(kind: StepKind, detail: string): void {
    const clipped = detail.length > DETAIL_CHARS ? `${detail.slice(0, DETAIL_CHARS)}…` : detail;
    this.steps.push({ at_ms: Math.max(0, this.now() - this.started), kind, detail: clipped });
  }
}
