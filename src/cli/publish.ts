import { type Command, Option } from 'commander';
import type { Logger } from 'pino';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { GerritClient } from '../gerrit/index.ts';
import { GitDiffSource, GitObjects } from '../git/index.ts';
import {
  buildReview,
  gitPatchset,
  PublishOptions,
  parseDiagnosisRun,
  publishDiagnosis,
} from '../publish/index.ts';
import { readInput, writeOutput } from './io.ts';

interface PublishFlags {
  diagnosis: string;
  gerrit?: string;
  repo?: string;
  dryRun?: boolean;
  out?: string;
  notify: PublishOptions['notify'];
  fixSuggestions: boolean;
}

export function registerPublish(program: Command, log: Logger): void {
  program
    .command('publish')
    .description('Post a diagnosis on its Gerrit patchset (or, with --dry-run, write the exact review JSON)')
    .requiredOption('-d, --diagnosis <file>', 'diagnosis JSON (a DiagnosisRun)')
    .option('--gerrit <url>', 'Gerrit base URL; credentials from GERRIT_USERNAME and GERRIT_PASSWORD(_FILE)')
    .option('--repo <path>', 'with --dry-run and no Gerrit: read the patchset from this git repository')
    .option('--dry-run', 'build the review JSON and write it instead of posting')
    .option('-o, --out <file>', 'where the dry-run review JSON goes (default: stdout)')
    .addOption(
      new Option('--notify <who>', 'who Gerrit emails about the post')
        .choices(PublishOptions.shape.notify.unwrap().options)
        .default('NONE'),
    )
    .option('--no-fix-suggestions', 'show verified fixes as text instead of Gerrit fix suggestions')
    .action(async (flags: PublishFlags) => {
      const run = parseDiagnosisRun(readJson(flags.diagnosis));
      const options = { notify: flags.notify, fixSuggestions: flags.fixSuggestions };
      if (flags.gerrit !== undefined) {
        const client = new GerritClient({ baseUrl: flags.gerrit, ...gerritCredentials(process.env) });
        const result = await publishDiagnosis({ client, log }, run, options, {
          dryRun: flags.dryRun === true,
        });
        if (result.status === 'dry_run')
          writeOutput(flags.out, `${JSON.stringify(result.review, null, 2)}\n`);
        else writeOutput(undefined, `${JSON.stringify({ status: result.status, digest: result.digest })}\n`);
        return;
      }
      if (flags.repo === undefined || flags.dryRun !== true) {
        throw new DiagnosisError(
          'INVALID_ARGUMENT',
          'publish needs --gerrit <url>, or --repo <path> with --dry-run',
          {
            input: flags.diagnosis,
          },
        );
      }
      const objects = await GitObjects.openLocal(flags.repo);
      try {
        const view = gitPatchset(objects, new GitDiffSource(objects), run.change.revision);
        const built = await buildReview(run, view, PublishOptions.parse(options));
        writeOutput(flags.out, `${JSON.stringify(built.review, null, 2)}\n`);
      } finally {
        await objects.close();
      }
    });
}

/** Secrets come from the environment or a file, never from the command line (it shows in `ps`). */
export function gerritCredentials(env: NodeJS.ProcessEnv): { username: string; password: string } {
  const username = env.GERRIT_USERNAME;
  if (username === undefined || username === '') {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      'GERRIT_USERNAME is not set: the Gerrit account to post as',
      {
        input: 'GERRIT_USERNAME',
      },
    );
  }
  if (env.GERRIT_PASSWORD !== undefined && env.GERRIT_PASSWORD !== '')
    return { username, password: env.GERRIT_PASSWORD };
  const file = env.GERRIT_PASSWORD_FILE;
  if (file === undefined || file === '') {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      'set GERRIT_PASSWORD or GERRIT_PASSWORD_FILE (the HTTP password)',
      {
        input: 'GERRIT_PASSWORD',
      },
    );
  }
  return { username, password: readInput(file, 'GERRIT_PASSWORD_FILE').trim() };
}

function readJson(path: string): unknown {
  const text = readInput(path, 'diagnosis');
  try {
    return JSON.parse(text);
  } catch (err: unknown) {
    throw new DiagnosisError('DIAGNOSIS_INVALID', `diagnosis ${path} is not JSON: ${describeError(err)}`, {
      input: path,
      cause: err,
    });
  }
}
