import type { Logger } from 'pino';
import { DiagnosisError } from '../errors/index.ts';
import {
  type ChangeMessageInfo,
  changeIdOf,
  type GerritClient,
  GerritError,
  type ReviewInput,
  type SleepFn,
} from '../gerrit/index.ts';
import { DiagnosisRun } from '../schemas/index.ts';
import { parseMarker } from './marker.ts';
import { gerritPatchset, type PatchsetView } from './patchset.ts';
import { type BuiltReview, buildReview, PublishOptions } from './review.ts';

export type PublishResult =
  | { status: 'posted'; digest: string; review: ReviewInput; attempts: number }
  /** This run's marker is already on the change: an earlier attempt landed. */
  | { status: 'already_posted'; digest: string; message_id: string }
  /** Another run posted the same diagnosis on this patchset. */
  | { status: 'unchanged'; digest: string; message_id: string }
  | { status: 'dry_run'; digest: string; review: ReviewInput };

export interface PublisherDeps {
  client: GerritClient;
  log: Pick<Logger, 'info' | 'warn'>;
  sleep?: SleepFn;
}

export interface PublishRequest {
  dryRun?: boolean;
  /** Posting attempts; between two, Gerrit's messages are searched for the run's marker. */
  attempts?: number;
  /** First delay between attempts, doubled each time. */
  retryDelayMs?: number;
}

/**
 * Posts one run's diagnosis on its patchset, at most once. Gerrit itself holds the record: the
 * summary's marker line is looked for in the change's messages before every attempt, so a
 * restart between posting and bookkeeping, or a timeout on a post that landed, never doubles
 * it. A new patchset always gets its own post; the same diagnosis on the same patchset does not.
 */
export async function publishDiagnosis(
  deps: PublisherDeps,
  input: unknown,
  options: Partial<PublishOptions> = {},
  request: PublishRequest = {},
): Promise<PublishResult> {
  const run = parseDiagnosisRun(input);
  const settings = PublishOptions.parse(options);
  const changeId = changeIdOf(...gerritTarget(run));
  const view = memoized(gerritPatchset(deps.client, changeId, run.change.revision));
  let built = await buildReview(run, view, settings);
  if (request.dryRun) return { status: 'dry_run', digest: built.digest, review: built.review };

  const attempts = Math.max(1, request.attempts ?? 3);
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    const prior = findPrior(await deps.client.listMessages(changeId), run, built.digest, settings.tag);
    if (prior !== null) {
      deps.log.info(
        { run: run.run_id, message: prior.message_id },
        `diagnosis not re-posted: ${prior.status}`,
      );
      return { ...prior, digest: built.digest };
    }
    try {
      await deps.client.postReview(changeId, run.change.revision, built.review, { retries: 0 });
      deps.log.info({ run: run.run_id, change: changeId, attempt }, 'diagnosis posted');
      return { status: 'posted', digest: built.digest, review: built.review, attempts: attempt };
    } catch (err: unknown) {
      if (!(err instanceof GerritError) || attempt >= attempts) throw err;
      if (refusedFixes(err, built)) {
        deps.log.warn(
          { run: run.run_id, err: err.message },
          'Gerrit refused fix suggestions; posting them as text',
        );
        built = await buildReview(run, view, { ...settings, fixSuggestions: false });
      } else if (!transient(err)) {
        throw err;
      }
      await sleep((request.retryDelayMs ?? 1_000) * 2 ** (attempt - 1));
    }
  }
}

/** The border check on a diagnosis handed to publishing: an error names the first bad field. */
export function parseDiagnosisRun(input: unknown): DiagnosisRun {
  const parsed = DiagnosisRun.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? '(root)' : issue.path.join('.') || '(root)';
  throw new DiagnosisError(
    'DIAGNOSIS_INVALID',
    `diagnosis is not valid at ${where}: ${issue?.message ?? ''}`,
    {
      input: where,
    },
  );
}

/** Project and change number: a diagnosis made outside Gerrit can be written, not posted. */
function gerritTarget(run: DiagnosisRun): [string, number] {
  const { project, number, patchset } = run.change;
  if (project === null || number === null || patchset === null) {
    throw new DiagnosisError(
      'DIAGNOSIS_INVALID',
      'diagnosis names no Gerrit change (change.project, change.number and change.patchset are needed to post)',
      { input: 'change' },
    );
  }
  return [project, number];
}

type Prior = { status: 'already_posted' | 'unchanged'; message_id: string };

/** Our earlier post of this run (any patchset), or of the same diagnosis on this patchset. */
export function findPrior(
  messages: readonly ChangeMessageInfo[],
  run: DiagnosisRun,
  digest: string,
  tag: string,
): Prior | null {
  let unchanged: Prior | null = null;
  for (const m of messages) {
    if (m.tag !== tag) continue;
    const marker = parseMarker(m.message);
    if (marker === null) continue;
    if (marker.runId === run.run_id) return { status: 'already_posted', message_id: m.id };
    if (marker.digest === digest && m._revision_number === run.change.patchset) {
      unchanged = { status: 'unchanged', message_id: m.id };
    }
  }
  return unchanged;
}

/** Gerrit 3.10 answers 500 (400 on some paths) when fix suggestions are not enabled on the server. */
function refusedFixes(err: GerritError, built: BuiltReview): boolean {
  return built.fixSuggestions > 0 && (err.status === 400 || err.status === 500);
}

function transient(err: GerritError): boolean {
  return err.status === undefined || err.status === 429 || err.status >= 500;
}

/** Each file list and file text is fetched once per publish, however many comments read it. */
function memoized(view: PatchsetView): PatchsetView {
  let files: Promise<ReadonlySet<string>> | undefined;
  const texts = new Map<string, Promise<string | null>>();
  return {
    files: () => {
      files ??= view.files();
      return files;
    },
    text: (path) => {
      const cached = texts.get(path) ?? view.text(path);
      texts.set(path, cached);
      return cached;
    },
  };
}
