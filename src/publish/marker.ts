import { createHash } from 'node:crypto';
import stringify from 'safe-stable-stringify';
import type { DiagnosisRun } from '../schemas/index.ts';

/**
 * Every summary ends with a marker line naming the run and a digest of its diagnosis. Gerrit's
 * own change messages are the record of what was posted, so idempotency survives a restart
 * between posting and bookkeeping: before posting, the messages are searched for the marker.
 */
export interface PostedMarker {
  runId: string;
  digest: string;
}

const MARKER = /^ci-diagnosis run `([A-Za-z0-9._-]+)` · diagnosis `([0-9a-f]{12})`$/m;

/** The last line of a summary message. */
export function markerLine(runId: string, digest: string): string {
  return `ci-diagnosis run \`${runId}\` · diagnosis \`${digest}\``;
}

export function parseMarker(message: string): PostedMarker | null {
  const match = MARKER.exec(message);
  return match?.[1] === undefined || match[2] === undefined ? null : { runId: match[1], digest: match[2] };
}

/**
 * What the diagnosis says, independent of which run said it and when: two runs that reach the
 * same conclusions on the same patchset have the same digest, so the second is not re-posted.
 */
export function diagnosisDigest(run: DiagnosisRun): string {
  const content = {
    revision: run.change.revision,
    // What is posted, not how it was reached: tokens, latency and checker notes vary between runs.
    failures: run.failures.map(
      ({ report_url: _url, usage: _usage, check: _check, triage: _triage, ...failure }) => failure,
    ),
  };
  return createHash('sha256').update(stringify(content)).digest('hex').slice(0, 12);
}
