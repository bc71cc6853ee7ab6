import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real throwaway git repository; global config is ignored so tests behave alike everywhere. */
export class TempRepo {
  readonly dir = mkdtempSync(join(tmpdir(), 'repo-'));

  constructor() {
    this.git('init', '-q', '-b', 'master');
    this.git('config', 'user.name', 'Test');
    this.git('config', 'user.email', 'test@example.com');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  }

  /** Writes (or, for null, deletes) files and commits them; returns the new sha. */
  commit(files: Record<string, string | null>, message: string): string {
    for (const [path, text] of Object.entries(files)) {
      const full = join(this.dir, path);
      if (text === null) unlinkSync(full);
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, text);
      }
    }
    this.git('add', '-A');
    this.git('commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
