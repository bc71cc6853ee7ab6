import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openRunStorage,
  type RunRequestInput,
  type SqliteRunStorage,
  type SqliteRunStorageOptions,
} from '../../../src/store/runs/index.ts';

export const REV = 'a'.repeat(40);

/** A clock the test moves by hand: leases and backoff read it. */
export class ManualClock {
  ms: number;

  constructor(start = Date.parse('2026-12-01T09:00:00.000Z')) {
    this.ms = start;
  }

  readonly now = (): Date => new Date(this.ms);

  advance(ms: number): void {
    this.ms += ms;
  }
}

export function request(over: Partial<RunRequestInput> = {}): RunRequestInput {
  return {
    project: 'shop',
    change: 7,
    patchset: 2,
    revision: REV,
    report_url: 'http://ci.example/job/42/allure/',
    platform: 'allure2',
    job_name: 'shop-verify',
    log_url: 'http://ci.example/job/42/console',
    ...over,
  };
}

/** A folder for one test's runs file, and the storage on it with a manual clock. */
export class TestFiles {
  readonly dir = mkdtempSync(join(tmpdir(), 'runs-'));
  readonly clock = new ManualClock();
  private readonly open: SqliteRunStorage[] = [];

  storage(options: SqliteRunStorageOptions = {}): SqliteRunStorage {
    const storage = openRunStorage(this.dir, { clock: this.clock.now, backoffMs: 1_000, ...options });
    this.open.push(storage);
    return storage;
  }

  cleanup(): void {
    for (const s of this.open) s.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The value, or a failed test when it is missing. */
export function present<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value, got none');
  return value;
}
