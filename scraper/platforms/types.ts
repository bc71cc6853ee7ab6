import type { Logger } from 'pino';
import type { Platform, ScrapeMode } from '../../src/schemas/index.ts';
import type { BrowserSession } from '../browser/index.ts';
import type { RawFailure } from '../raw.ts';
import type { ReportSource } from '../source/report-source.ts';

/** Progress of long work: a bar on a terminal, JSON lines otherwise (see src/cli/progress.ts). */
export interface Progress {
  start(total: number, label: string): void;
  tick(label?: string): void;
  done(): void;
}

export interface ScrapeLimits {
  /** Per page navigation or wait. */
  pageTimeoutMs: number;
  /** Parallel pages (DOM) or requests (data). */
  concurrency: number;
  /** Retries of one failure's page on a transient error before it becomes a warning. */
  pageRetries: number;
}

export interface ScrapeContext {
  source: ReportSource;
  /** What the user gave (URL or path), for error messages. */
  input: string;
  mode: ScrapeMode;
  limits: ScrapeLimits;
  /** Opened lazily and shared; the caller closes it. */
  browser: () => Promise<BrowserSession>;
  progress: Progress;
  log: Logger;
  /**
   * Hands one failure to the facts builder as soon as it is read, so raw pages are not all
   * held in memory. `order` is the failure's position in the report's own order (level 1,
   * then level 2), which fixes issue ids whatever order parallel pages finish in.
   */
  emit: (order: number, failure: RawFailure) => Promise<void>;
}

export interface ScrapeSummary {
  /** Environment the report states: runner, OS, versions. */
  environment: Array<{ name: string; value: string }>;
  warnings: string[];
  /** The mode actually used (an adapter may offer only some). */
  mode: ScrapeMode;
  /** How many failures were emitted. */
  failures: number;
  /** Keys of the tests that passed, as failures are keyed; absent where the platform cannot list them. */
  passed?: string[];
}

/** One report platform. Capabilities are explicit: which modes it can scrape in. */
export interface PlatformAdapter {
  readonly platform: Platform;
  readonly modes: readonly ScrapeMode[];
  /** Cheap check on the report's files: is this report ours? */
  detect(source: ReportSource): Promise<boolean>;
  scrape(ctx: ScrapeContext): Promise<ScrapeSummary>;
}
