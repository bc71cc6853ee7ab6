import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { DiagnosisError } from '../src/errors/index.ts';
import {
  type FactsDocument,
  FactsDocument as FactsSchema,
  type Issue,
  type ScrapeMode,
} from '../src/schemas/index.ts';
import type { EvidenceStore } from '../src/store/evidence/index.ts';
import { type BrowserOptions, BrowserSession, originOf } from './browser/index.ts';
import { FactsBuilder } from './facts/index.ts';
import { createRegistry, type PlatformChoice } from './platforms/registry.ts';
import type { Progress, ScrapeLimits } from './platforms/types.ts';
import { openReportSource, type ServedDir, serveDir } from './source/index.ts';

/** Passed-test keys kept per run: enough for history flips, bounded for suites of any size. */
const MAX_PASSED = 20_000;

export interface RunIdentity {
  repository: string | null;
  change_id: string | null;
  patchset: number | null;
  revision_sha: string | null;
}

export interface ScrapeOptions {
  /** Report URL, folder or file. */
  input: string;
  platform?: PlatformChoice;
  mode?: ScrapeMode;
  run?: Partial<RunIdentity>;
  limits?: Partial<ScrapeLimits>;
}

export interface ScrapeDeps {
  store: EvidenceStore;
  log: Logger;
  progress: Progress;
  /** Folder of generic platform definitions (config/platforms). */
  platformsDir: string;
  clock?: () => Date;
  browser?: Partial<BrowserOptions>;
}

export const DEFAULT_LIMITS: ScrapeLimits = { pageTimeoutMs: 20_000, concurrency: 4, pageRetries: 1 };

/** Report in, facts JSON out: picks the platform, walks the report, builds the facts. */
export async function scrapeReport(options: ScrapeOptions, deps: ScrapeDeps): Promise<FactsDocument> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  let source = await openReportSource(options.input, { timeoutMs: limits.pageTimeoutMs });
  const registry = createRegistry(deps.platformsDir);
  const adapter = options.platform
    ? await registry.byChoice(options.platform)
    : await registry.detect(source, options.input);
  const mode = options.mode ?? adapter.modes[0] ?? 'data';
  if (!adapter.modes.includes(mode)) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `platform ${adapter.platform} cannot be scraped in ${mode} mode (it offers: ${adapter.modes.join(', ')})`,
      { input: mode },
    );
  }
  const original = source;
  let served: ServedDir | undefined;
  if (mode === 'dom' && !source.isHttp) {
    served = await serveDir(fileURLToPath(new URL('.', source.rootUrl)));
    source = await openReportSource(served.url, { timeoutMs: limits.pageTimeoutMs });
  }
  let browser: Promise<BrowserSession> | undefined;
  const builder = new FactsBuilder(deps.store);
  try {
    deps.log.info({ input: options.input, platform: adapter.platform, mode }, 'scraping report');
    const summary = await adapter.scrape({
      source,
      input: options.input,
      mode,
      limits,
      progress: deps.progress,
      log: deps.log,
      browser: () => {
        browser ??= BrowserSession.open(originOf(source.rootUrl), {
          ...deps.browser,
          timeoutMs: limits.pageTimeoutMs,
        });
        return browser;
      },
      emit: async (order, failure) => builder.add(order, failure),
    });
    const clock = deps.clock ?? (() => new Date());
    return FactsSchema.parse({
      schema_version: 1,
      run: {
        repository: options.run?.repository ?? null,
        change_id: options.run?.change_id ?? null,
        patchset: options.run?.patchset ?? null,
        revision_sha: options.run?.revision_sha ?? null,
        report_url: options.input,
        platform: adapter.platform,
        mode: summary.mode,
        scraped_at: clock().toISOString(),
        environment: summary.environment.map((e) => ({ type: 'environment', name: e.name, value: e.value })),
        warnings: summary.warnings,
        ...(summary.passed === undefined ? {} : { passed_tests: summary.passed.slice(0, MAX_PASSED) }),
      },
      // A folder served on loopback for the browser is named by its own path in the facts.
      issues: served ? rebase(builder.issues(), served.url, original.rootUrl) : builder.issues(),
    });
  } finally {
    if (browser) await (await browser).close();
    if (served) await served.close();
  }
}

function rebase(issues: Issue[], from: string, to: string): Issue[] {
  return issues.map((issue) =>
    issue.url.startsWith(from) ? { ...issue, url: to + issue.url.slice(from.length) } : issue,
  );
}
