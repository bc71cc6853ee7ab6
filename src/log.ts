import { type Logger, pino } from 'pino';
import { redactionPaths } from './config/index.ts';

/**
 * JSON-lines logs to stderr (stdout carries command output). Secrets that may appear in
 * configuration or URLs are redacted at the source.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      // On a terminal the progress bar speaks; JSON info lines are for pipelines and log shippers.
      level: options.level ?? process.env.LOG_LEVEL ?? (process.stderr.isTTY ? 'warn' : 'info'),
      redact: { paths: [...redactionPaths], censor: '[redacted]' },
    },
    (options.destination ?? process.stderr) as pino.DestinationStream,
  );
}
