import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Git as tests run it: no global or system configuration, so every machine behaves alike. */
export const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV, maxBuffer: 256 * 1024 * 1024 });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** A real throwaway repository (non-bare), built commit by commit with the git CLI. */
export class TestRepo {
  readonly dir: string;

  constructor(dir = tempDir('git-repo')) {
    this.dir = dir;
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.name', 'Test');
    this.git('config', 'user.email', 'test@example.com');
  }

  git(...args: string[]): string {
    return git(this.dir, ...args).trim();
  }

  /** Writes (or, for null, deletes) files, stages everything and commits; returns the sha. */
  commit(files: Record<string, string | Buffer | null>, message = 'change'): string {
    for (const [path, content] of Object.entries(files)) this.write(path, content);
    this.git('add', '-A');
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.head();
  }

  write(path: string, content: string | Buffer | null): void {
    const full = join(this.dir, path);
    if (content === null) {
      unlinkSync(full);
      return;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }

  symlink(path: string, target: string): void {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    symlinkSync(target, full);
  }

  head(): string {
    return this.git('rev-parse', 'HEAD');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `count` numbered, distinct lines, so a line's text says where it came from. */
export function lines(count: number, label = 'line'): string[] {
  return Array.from({ length: count }, (_, i) => `${label} ${i + 1}`);
}

export function text(rows: readonly string[]): string {
  return `${rows.join('\n')}\n`;
}
