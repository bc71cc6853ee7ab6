import { type SimpleGit, simpleGit } from 'simple-git';
import { DiagnosisError, describeError } from '../errors/index.ts';

export interface GitRunnerOptions {
  /** Environment the git processes start from (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Kill a git command that has printed nothing for this long (a hung fetch). */
  idleTimeoutMs?: number;
}

const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;

/**
 * Settings every git command runs with: paths printed verbatim (not octal-quoted) so they
 * match tree entries, and no prompt for credentials that would hang a service forever.
 */
const GIT_CONFIG = ['core.quotePath=false'];

/**
 * Variables that name programs for git to run (editor, pager, askpass). Our commands never need
 * them, and simple-git refuses to pass them on.
 */
const PROGRAM_VARIABLES = new Set(['EDITOR', 'VISUAL', 'PAGER', 'SSH_ASKPASS', 'PREFIX']);

/**
 * The environment for a git child process. Inherited `GIT_*` variables are dropped: a service
 * started from a git hook would otherwise read `GIT_DIR`/`GIT_INDEX_FILE` meant for another
 * repository (simple-git strips them too; the batch process must match it).
 */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    const name = key.toUpperCase();
    if (!name.startsWith('GIT_') && !PROGRAM_VARIABLES.has(name)) env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  return env;
}

/** Removes `user:password@` from URLs, so remote credentials never reach messages or logs. */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1[redacted]@');
}

/** One-shot git commands in one directory, with failures turned into coded errors. */
export class GitRunner {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  private readonly git: SimpleGit;

  constructor(dir: string, options: GitRunnerOptions = {}) {
    this.dir = dir;
    this.env = gitEnv(options.env);
    this.git = simpleGit({
      baseDir: dir,
      config: GIT_CONFIG,
      allowEnvironment: ['GIT_TERMINAL_PROMPT'],
      timeout: { block: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS },
      errors: failOnExitCode,
    }).env(this.env);
  }

  /** Runs `git <args>` and returns its stdout; a failure is a GIT_ERROR naming the command. */
  async run(args: string[]): Promise<string> {
    try {
      return await this.git.raw(args);
    } catch (err: unknown) {
      throw gitFailure(args, this.dir, err);
    }
  }
}

/**
 * simple-git treats a non-zero exit with an empty stderr as success, and folds a command's whole
 * stdout (a diff, a tree listing) into its error. Here any non-zero exit fails, described by
 * stderr alone; an error without an exit (git not spawnable) is passed on as it is.
 */
function failOnExitCode(
  error: Buffer | Error | undefined,
  result: { stdErr: Buffer[]; exitCode: number },
): Buffer | Error | undefined {
  if (result.exitCode === 0) return error;
  const stderr = Buffer.concat(result.stdErr).toString('utf8').trim();
  if (stderr !== '') return Buffer.from(stderr);
  return error ?? Buffer.from(`exit code ${result.exitCode}`);
}

export function gitFailure(args: string[], dir: string, err: unknown): DiagnosisError {
  const raw = describeError(err).trim();
  const detail = redactCredentials(raw);
  // The original error is kept as the cause unless it carries credentials we just removed.
  return new DiagnosisError('GIT_ERROR', `git ${args[0] ?? ''} failed in ${dir}: ${detail}`, {
    input: dir,
    ...(detail === raw ? { cause: err } : {}),
  });
}
