import { SingleBar } from 'cli-progress';
import type { Logger } from 'pino';
import type { Progress } from '../../scraper/index.ts';

/** A bar on a terminal; otherwise a JSON log line about every tenth of the work. */
export function createProgress(log: Logger, stream: NodeJS.WriteStream = process.stderr): Progress {
  return stream.isTTY ? barProgress(stream) : logProgress(log);
}

function barProgress(stream: NodeJS.WriteStream): Progress {
  const bar = new SingleBar({
    stream,
    format: '{label} [{bar}] {value}/{total} {item}',
    hideCursor: true,
    clearOnComplete: false,
  });
  let label = '';
  return {
    start: (total, what) => {
      label = what;
      bar.start(total, 0, { label, item: '' });
    },
    tick: (item) => bar.increment(1, { label, item: (item ?? '').slice(0, 40) }),
    done: () => bar.stop(),
  };
}

function logProgress(log: Logger): Progress {
  let total = 0;
  let done = 0;
  let label = '';
  let nextReport = 0;
  return {
    start: (n, what) => {
      total = n;
      done = 0;
      label = what;
      nextReport = Math.max(1, Math.ceil(n / 10));
      log.info({ progress: label, done, total }, 'started');
    },
    tick: () => {
      done++;
      if (done >= nextReport && done < total) {
        log.info({ progress: label, done, total }, 'progress');
        nextReport += Math.max(1, Math.ceil(total / 10));
      }
    },
    done: () => log.info({ progress: label, done, total }, 'finished'),
  };
}
