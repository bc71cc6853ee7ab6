import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { DiagnosisError, describeError } from '../errors/index.ts';

/** What `git cat-file --batch` answered for one name. */
export type BatchObject =
  | {
      found: true;
      oid: string;
      type: string;
      size: number;
      /** Null when the object is larger than the request allowed: its bytes were skipped. */
      content: Buffer | null;
    }
  | { found: false; reason: 'missing' | 'ambiguous' };

interface Pending {
  name: string;
  maxBytes: number;
  resolve: (object: BatchObject) => void;
  reject: (err: unknown) => void;
}

/** Where the parser is in the answer stream; see https://git-scm.com/docs/git-cat-file#_batch_output. */
type ParseState =
  | { at: 'header' }
  | { at: 'body'; oid: string; type: string; size: number; body: Buffer | null; filled: number }
  | { at: 'newline'; object: BatchObject };

const STDERR_TAIL_CHARS = 4_000;

/**
 * One long-lived `git cat-file --batch` per repository: a read is a line written and an answer
 * parsed, not a process spawned, which is what makes thousands of reads per second possible.
 * Answers come back in request order, so pending requests form a FIFO queue. The process starts
 * on the first request, is restarted if it dies, and holds the event loop open only while a
 * request is outstanding (a forgotten `close()` must not hang a CLI).
 */
export class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | null = null;
  private exited: Promise<void> = Promise.resolve();
  private queue: Pending[] = [];
  private state: ParseState = { at: 'header' };
  private leftover: Buffer = Buffer.alloc(0);
  private stderrTail = '';
  private closed = false;

  constructor(
    private readonly gitDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Asks for one object by any name git understands (`<sha>`, `<rev>^{commit}`). */
  get(name: string, maxBytes = Number.POSITIVE_INFINITY): Promise<BatchObject> {
    if (this.closed) {
      return Promise.reject(new DiagnosisError('GIT_ERROR', `object reader for ${this.gitDir} is closed`));
    }
    // One name per line is the whole protocol: a newline inside a name would frame a second request.
    if (/[\n\r\0]/.test(name)) {
      return Promise.reject(new DiagnosisError('INVALID_ARGUMENT', 'object name contains a line break'));
    }
    const child = this.child ?? this.start();
    return new Promise<BatchObject>((resolve, reject) => {
      if (this.queue.length === 0) holdEventLoop(child, true);
      this.queue.push({ name, maxBytes, resolve, reject });
      child.stdin.write(`${name}\n`);
    });
  }

  /** Ends the process after it has answered what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.child !== null) {
      // Hold the loop until git has gone: an unref'd child would let the process end mid-close.
      holdEventLoop(this.child, true);
      this.child.stdin.end();
    }
    await this.exited;
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: this.gitDir, env: this.env });
    this.child = child;
    this.state = { at: 'header' };
    this.leftover = Buffer.alloc(0);
    this.stderrTail = '';
    child.stdout.on('data', (chunk: Buffer) => this.onData(child, chunk));
    // Read stderr continuously: a full stderr pipe would block git mid-answer.
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    // A write after git died surfaces as EPIPE here; the exit handler reports it to the callers.
    child.stdin.on('error', (err: unknown) => {
      this.stderrTail += `\nstdin: ${describeError(err)}`;
    });
    this.exited = new Promise<void>((resolve) => {
      child.on('error', (err: unknown) => {
        this.onExit(child, `could not run git: ${describeError(err)}`);
        resolve();
      });
      child.on('close', (code, signal) => {
        this.onExit(child, `exited with ${signal ?? `code ${code}`}`);
        resolve();
      });
    });
    holdEventLoop(child, false);
    return child;
  }

  private onExit(child: ChildProcessWithoutNullStreams, how: string): void {
    if (this.child !== child) return;
    this.child = null;
    const failed = this.queue;
    this.queue = [];
    if (failed.length === 0) return;
    const detail = this.stderrTail.trim();
    const err = new DiagnosisError(
      'GIT_ERROR',
      `git cat-file --batch in ${this.gitDir} ${how} with ${failed.length} reads pending${detail ? `: ${detail}` : ''}`,
      { input: this.gitDir },
    );
    for (const pending of failed) pending.reject(err);
  }

  private onData(child: ChildProcessWithoutNullStreams, chunk: Buffer): void {
    if (this.child !== child) return;
    const buf = this.leftover.length > 0 ? Buffer.concat([this.leftover, chunk]) : chunk;
    this.leftover = Buffer.alloc(0);
    let pos = 0;
    while (pos < buf.length && this.child === child) {
      const next = this.step(buf, pos);
      if (next === null) {
        // An incomplete header line: keep a copy, not a view pinning the whole chunk.
        this.leftover = Buffer.from(buf.subarray(pos));
        return;
      }
      pos = next;
    }
  }

  /** Consumes what it can from `buf` at `pos`; returns the new position, or null to wait for more. */
  private step(buf: Buffer, pos: number): number | null {
    const state = this.state;
    if (state.at === 'header') {
      const eol = buf.indexOf(10, pos);
      if (eol < 0) return null;
      this.onHeader(buf.toString('utf8', pos, eol));
      return eol + 1;
    }
    if (state.at === 'body') {
      const take = Math.min(state.size - state.filled, buf.length - pos);
      if (state.body !== null) buf.copy(state.body, state.filled, pos, pos + take);
      state.filled += take;
      if (state.filled === state.size) {
        const { oid, type, size, body } = state;
        this.state = { at: 'newline', object: { found: true, oid, type, size, content: body } };
      }
      return pos + take;
    }
    // Every object's bytes are followed by one LF.
    this.state = { at: 'header' };
    this.answer(state.object);
    return pos + 1;
  }

  private onHeader(line: string): void {
    const pending = this.queue[0];
    const missing = /^(.*) (missing|ambiguous)$/.exec(line);
    if (missing !== null) {
      this.answer({ found: false, reason: missing[2] === 'ambiguous' ? 'ambiguous' : 'missing' });
      return;
    }
    const header = /^([0-9a-f]{40,64}) (\w+) (\d+)$/.exec(line);
    if (header === null || pending === undefined) {
      this.protocolError(`unexpected answer "${line.slice(0, 200)}"`);
      return;
    }
    const size = Number(header[3]);
    const body = size > pending.maxBytes ? null : Buffer.allocUnsafe(size);
    this.state = { at: 'body', oid: header[1] as string, type: header[2] as string, size, body, filled: 0 };
  }

  private answer(object: BatchObject): void {
    const pending = this.queue.shift();
    if (pending === undefined) {
      this.protocolError('an answer nobody asked for');
      return;
    }
    if (this.queue.length === 0 && this.child !== null) holdEventLoop(this.child, false);
    pending.resolve(object);
  }

  /** Out of step with git: nothing more can be trusted, so fail everything and restart next time. */
  private protocolError(what: string): void {
    const child = this.child;
    this.stderrTail += `\nprotocol: ${what}`;
    this.state = { at: 'header' };
    if (child !== null) {
      this.onExit(child, 'got out of step');
      child.kill();
    }
  }
}

/** Refs or unrefs the process and its pipes, so an idle reader never keeps Node running. */
function holdEventLoop(child: ChildProcessWithoutNullStreams, hold: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as {
    ref?: () => void;
    unref?: () => void;
  }[]) {
    if (hold) handle.ref?.();
    else handle.unref?.();
  }
}
