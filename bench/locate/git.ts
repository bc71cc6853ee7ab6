/**
 * The few git reads the locator benchmark needs, straight from git objects (never a work tree):
 * one-shot commands through execFile and a long-lived `git cat-file --batch` for blobs.
 * Deliberately independent of `src/git/` so that the ground truth is not computed by the code
 * under test.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export async function git(repo: string, args: readonly string[]): Promise<string> {
  const { stdout } = await exec('git', ['--git-dir', repo, ...args], {
    maxBuffer: 512 * 1024 * 1024,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
  });
  return stdout;
}

/** `git rev-parse --git-dir` of a work tree or bare repository, absolute. */
export async function gitDirOf(path: string): Promise<string> {
  const { stdout } = await exec('git', ['-C', path, 'rev-parse', '--absolute-git-dir'], { encoding: 'utf8' });
  return stdout.trim();
}

interface Pending {
  resolve: (blob: Buffer | null) => void;
  reject: (err: Error) => void;
}

/** Blobs by `rev:path` over one `git cat-file --batch`; requests are answered in order. */
export class BlobReader {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private closed = false;

  constructor(repo: string) {
    this.proc = spawn('git', ['--git-dir', repo, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    this.proc.on('exit', () => {
      this.closed = true;
      for (const p of this.queue.splice(0)) p.reject(new Error('git cat-file exited'));
    });
  }

  /** The blob's bytes, or null when `rev:path` names no blob. */
  read(rev: string, path: string): Promise<Buffer | null> {
    if (this.closed) return Promise.reject(new Error('git cat-file is closed'));
    if (/[\n\r]/.test(path)) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.proc.stdin.write(`${rev}:${path}\n`);
    });
  }

  async text(rev: string, path: string): Promise<string | null> {
    const blob = await this.read(rev, path);
    return blob === null ? null : blob.toString('utf8');
  }

  close(): void {
    if (!this.closed) this.proc.stdin.end();
  }

  private drain(): void {
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      const eol = this.buffer.indexOf(10);
      if (eol < 0) return;
      const header = this.buffer.subarray(0, eol).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift();
        head.resolve(null);
        continue;
      }
      const [, type, sizeText] = header.split(' ');
      const size = Number(sizeText);
      if (this.buffer.length < eol + 1 + size + 1) return;
      const body = this.buffer.subarray(eol + 1, eol + 1 + size);
      this.buffer = this.buffer.subarray(eol + 1 + size + 1);
      this.queue.shift();
      head.resolve(type === 'blob' ? Buffer.from(body) : null);
    }
  }
}

/** Lines of a text: `lines[n - 1]` is line n; a final newline adds no line. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}
