/**
 * Coded errors: every failure the service reports carries a stable code, so callers branch on
 * `err.code` and users read a message that names the input and the problem.
 */
export type ErrorCode =
  | 'INPUT_NOT_FOUND'
  | 'NOT_A_REPORT'
  | 'EMPTY_REPORT'
  | 'MALFORMED_REPORT'
  | 'PAGE_TIMEOUT'
  | 'HTTP_ERROR'
  | 'BROWSER_UNAVAILABLE'
  | 'PLATFORM_CONFIG_INVALID'
  | 'EVIDENCE_NOT_FOUND'
  | 'EVIDENCE_RANGE_INVALID'
  | 'INVALID_ARGUMENT'
  | 'GIT_ERROR'
  | 'REPO_NOT_FOUND'
  | 'REVISION_NOT_FOUND'
  | 'PATH_REFUSED'
  | 'FILE_TOO_LARGE'
  | 'GERRIT_ERROR'
  | 'GERRIT_AUTH'
  | 'GERRIT_NOT_FOUND'
  | 'EVENT_INVALID'
  | 'DIAGNOSIS_INVALID'
  | 'REVIEW_INVALID'
  | 'STORE_ERROR'
  | 'RUN_NOT_FOUND'
  | 'SKILL_INVALID'
  | 'TOOL_INPUT_INVALID'
  | 'MODEL_ERROR'
  | 'MODEL_REPLY_INVALID'
  | 'BUDGET_EXHAUSTED'
  | 'CORPUS_INVALID';

export class DiagnosisError extends Error {
  readonly code: ErrorCode;
  /** The input the error is about (a URL, a path, an id), so messages can name it. */
  readonly input: string | undefined;

  constructor(code: ErrorCode, message: string, options: { input?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DiagnosisError';
    this.code = code;
    this.input = options.input;
  }
}

export function isDiagnosisError(err: unknown): err is DiagnosisError {
  return err instanceof DiagnosisError;
}

/** Message of an unknown thrown value, for warnings that must not lose the cause. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
