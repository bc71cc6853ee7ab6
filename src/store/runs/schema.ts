import { z } from 'zod';
import { EvidenceId } from '../../schemas/index.ts';

/**
 * The stages of a run, in the order they run. This is the one list: the queue's "next stage",
 * resumption and the page's progress all read it from here.
 */
export const Stage = z.enum(['scrape', 'context', 'locate', 'diagnose', 'check', 'publish', 'page']);
export type Stage = z.infer<typeof Stage>;
export const STAGES: readonly Stage[] = Stage.options;

/** Position of a stage in `STAGES`. */
export function stageIndex(stage: Stage): number {
  return STAGES.indexOf(stage);
}

/** The stage after `stage`, or null after the last one. */
export function nextStage(stage: Stage): Stage | null {
  return STAGES[stageIndex(stage) + 1] ?? null;
}

/**
 * queued → running → done | failed; cancelled and superseded can end a queued or running run.
 * A new round (QA evidence) takes a done or failed run back to queued.
 */
export const RunState = z.enum(['queued', 'running', 'done', 'failed', 'superseded', 'cancelled']);
export type RunState = z.infer<typeof RunState>;
/** States a run does not leave on its own. */
export const FINISHED_STATES: readonly RunState[] = ['done', 'failed', 'superseded', 'cancelled'];

/**
 * Run ids are page paths and, with a round suffix, Gerrit marker ids: the `DiagnosisRun.run_id`
 * alphabet, 8 characters shorter so that `markerRunId` still fits its 64.
 */
export const RunId = z.string().regex(/^[A-Za-z0-9._-]{1,56}$/, 'letters, digits, . _ - (at most 56)');

/**
 * The `DiagnosisRun.run_id` a round publishes under. The publisher treats a marker with the same
 * run id as "already posted", so a re-diagnosis (round 2+) needs its own id to be posted at all;
 * an unchanged diagnosis is still not re-posted (same digest on the same patchset: "unchanged").
 */
export function markerRunId(runId: string, round: number): string {
  return round <= 1 ? runId : `${runId}.r${round}`;
}

/** What the CI verifier (or a Gerrit event, or the CLI) hands over to start a run. */
export const RunRequest = z
  .strictObject({
    /** Gerrit project; null for a run outside Gerrit. */
    project: z.string().min(1).nullable().default(null),
    change: z.number().int().positive().nullable().default(null),
    patchset: z.number().int().positive().nullable().default(null),
    revision: z
      .string()
      .regex(/^[0-9a-f]{40}$/, 'a full commit sha')
      .nullable()
      .default(null),
    report_url: z.string().min(1),
    /**
     * The commit the report's tests ran on, when CI says so (the patchset's own commit for a
     * verifier that checks out the patchset ref). Only then are the report's line numbers
     * trusted as lines of a known revision; a CI that tests a merge onto the branch tip leaves it out.
     */
    report_revision: z
      .string()
      .regex(/^[0-9a-f]{40}$/, 'a full commit sha')
      .nullable()
      .default(null),
    /** Report platform hint (allure2, allure3, junit, generic…), as handed over. */
    platform: z.string().min(1).nullable().default(null),
    job_name: z.string().min(1).nullable().default(null),
    log_url: z.string().min(1).nullable().default(null),
  })
  .refine((r) => r.patchset !== null || r.revision !== null, {
    message: 'a run needs a patchset or a revision',
    path: ['patchset'],
  })
  .refine((r) => r.change !== null || r.patchset === null, {
    message: 'a patchset needs its change',
    path: ['change'],
  });
export type RunRequest = z.infer<typeof RunRequest>;
export type RunRequestInput = z.input<typeof RunRequest>;

/** The default idempotency key: one run per report of one patchset (or revision). */
export function idempotencyKey(request: RunRequest): string {
  return [
    request.project ?? '',
    request.change ?? '',
    request.patchset ?? request.revision ?? '',
    request.report_url,
  ].join('~');
}

export const Run = z.object({
  id: RunId,
  key: z.string().min(1),
  state: RunState,
  /** The stage queued or running; the last one worked on when the run is finished. */
  stage: Stage.nullable(),
  /** 1, plus one per re-run (QA evidence); stage results are kept per round. */
  round: z.number().int().positive(),
  /** The stage this round started at: earlier stages' results come from earlier rounds. */
  round_from: Stage,
  /** A re-run asked for while this round was in progress: it starts when the round ends. */
  rerun_from: Stage.nullable(),
  request: RunRequest,
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Run = z.infer<typeof Run>;

/** running → done | skipped, or → waiting_retry → running … → failed. */
export const StageStatus = z.enum(['running', 'waiting_retry', 'done', 'skipped', 'failed']);
export type StageStatus = z.infer<typeof StageStatus>;

export const StageResult = z.object({
  run_id: RunId,
  round: z.number().int().positive(),
  stage: Stage,
  status: StageStatus,
  /** The attempt this row describes (1-based). */
  attempt: z.number().int().nonnegative(),
  /** The stage's output as JSON, when small enough to keep inline. */
  output: z.unknown().nullable(),
  /** Where a large output lives instead (an evidence id, a file path). */
  ref: z.string().nullable(),
  error: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().int().nonnegative().nullable(),
});
export type StageResult = z.infer<typeof StageResult>;

/** What the publisher answered (`PublishResult.status`, dry runs are not posts). */
export const PostStatus = z.enum(['posted', 'already_posted', 'unchanged']);
export type PostStatus = z.infer<typeof PostStatus>;

export const PostInput = z.strictObject({
  digest: z.string().min(1),
  status: PostStatus,
  /** Gerrit's change message id, when known (already_posted/unchanged name the earlier one). */
  message_id: z.string().min(1).nullable().default(null),
  /** The round that posted; defaults to the run's current round. */
  round: z.number().int().positive().optional(),
});
export type PostInput = z.input<typeof PostInput>;

export const PostRecord = z.object({
  run_id: RunId,
  round: z.number().int().positive(),
  digest: z.string(),
  status: PostStatus,
  message_id: z.string().nullable(),
  at: z.string(),
});
export type PostRecord = z.infer<typeof PostRecord>;

/** What QA can add on the report page. */
export const QaEvidenceKind = z.enum(['text', 'log', 'trace_id', 'rerun_result']);
export type QaEvidenceKind = z.infer<typeof QaEvidenceKind>;

export const QaEvidenceInput = z.strictObject({
  /** The item in the evidence store. */
  evidence_id: EvidenceId,
  kind: QaEvidenceKind,
  note: z.string().nullable().default(null),
});
export type QaEvidenceInput = z.input<typeof QaEvidenceInput>;

export const QaEvidence = z.object({
  run_id: RunId,
  evidence_id: EvidenceId,
  kind: QaEvidenceKind,
  note: z.string().nullable(),
  /** The round started for it, if any. */
  round: z.number().int().positive().nullable(),
  at: z.string(),
});
export type QaEvidence = z.infer<typeof QaEvidence>;

export const RunEvent = z.object({
  run_id: RunId,
  at: z.string(),
  /** e.g. created, claimed, completed, retry, failed, cancelled, superseded, rerun, recovered. */
  kind: z.string().min(1),
  message: z.string(),
  data: z.unknown().nullable(),
});
export type RunEvent = z.infer<typeof RunEvent>;

export const JobState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export type JobState = z.infer<typeof JobState>;

/** A claimed job: the stage of a run one worker holds a lease on. */
export interface Job {
  id: string;
  /** Proves the lease: complete/fail/heartbeat with an old token are refused. */
  token: string;
  run_id: string;
  round: number;
  stage: Stage;
  /** This attempt, 1-based; crashed attempts count. */
  attempt: number;
  max_attempts: number;
  worker: string;
  lease_expires_at: string;
}
/** What complete, fail and heartbeat need of a job. */
export type JobHandle = Pick<Job, 'id' | 'token'>;
