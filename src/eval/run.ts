import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Progress } from '../../scraper/index.ts';
import { evidenceChecker } from '../check/index.ts';
import { type Checker, diagnoseReport, type Engine, loadPipelineSettings } from '../diagnose/index.ts';
import { describeError } from '../errors/index.ts';
import type { FailureDiagnosis, ScrapeMode } from '../schemas/index.ts';
import { EvidenceStore } from '../store/evidence/index.ts';
import { SignatureStore } from '../store/signatures/index.ts';
import { cloneCase, loadCase, pipelineInputOf } from './case.ts';
import {
  type CheckRecord,
  type ClaimSupport,
  claimSupport,
  type FailureScore,
  scoreFailure,
} from './metrics.ts';

const silent: Progress = { start: () => {}, tick: () => {}, done: () => {} };

/** One diagnosed failure with its scores (the truth's verdict and category beside it). */
export interface FailureResult {
  issue_id: string;
  test: string;
  verdict: string;
  category: string;
  place: FailureDiagnosis['place'];
  truth: { verdict: string; category: string };
  score: FailureScore;
  check: CheckRecord;
  tokens: number;
}

export interface CaseResult {
  id: string;
  /** The case's truth verdict and language and whether it is a real upstream bug: for the breakdown. */
  group: { verdict: string; language: string | null; real: boolean } | null;
  /** Wall time of the pipeline (history, scrape, locate, context, diagnose, check), not the clone. */
  ms: number;
  tokens: number;
  failures: FailureResult[];
  /** Set when the case could not be run; such a case counts in no metric. */
  error: string | null;
}

export interface RunOptions {
  engine: Engine;
  /** Module delegation (the `+delegation` row). */
  delegation: boolean;
  /** The checker's repair and degrade (off for the ablations without the gate); default on. */
  gate?: boolean;
  /** Scrape mode; default: data for Allure reports (fast, no browser), the platform's first otherwise. */
  mode?: ScrapeMode;
  platformsDir: string;
}

/** The case folders of a corpus (sub-folders with a case.json; `_…` folders are not cases), sorted. */
export async function listCases(corpus: string, only?: readonly string[]): Promise<string[]> {
  const names = (await readdir(corpus, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith('_'))
    .map((e) => e.name)
    .sort();
  const cases: string[] = [];
  for (const name of names) {
    if (only !== undefined && !only.includes(name)) continue;
    if (await stat(join(corpus, name, 'case.json')).catch(() => null)) cases.push(name);
  }
  return cases;
}

/**
 * Wraps the checker to see, per failure, the engine's draft as the checker first judged it
 * (before) and the final output re-checked after the degrade (after). The pipeline itself is
 * unchanged: the wrapper passes every call through.
 */
export function recordingChecker(inner: Checker): { checker: Checker; records: Map<string, CheckRecord> } {
  const before = new Map<string, ClaimSupport>();
  const records = new Map<string, CheckRecord>();
  const checker: Checker = {
    describe: (findings) => inner.describe(findings),
    check: async (draft, input) => {
      const findings = await inner.check(draft, input);
      const support = claimSupport(draft, findings);
      if (!before.has(input.issue.id)) before.set(input.issue.id, support);
      // Without a degrade the last checked draft is the output.
      records.set(input.issue.id, { before: before.get(input.issue.id) ?? support, after: support });
      return findings;
    },
    degrade: async (draft, findings, input) => {
      const out = await inner.degrade(draft, findings, input);
      const after = claimSupport(out.draft, await inner.check(out.draft, input));
      records.set(input.issue.id, { before: before.get(input.issue.id) ?? after, after });
      return out;
    },
  };
  return { checker, records };
}

function defaultMode(platform: string): ScrapeMode | undefined {
  return platform.startsWith('allure') ? 'data' : undefined;
}

function tokensOf(d: FailureDiagnosis): number {
  return d.usage === undefined ? 0 : d.usage.input_tokens + d.usage.output_tokens;
}

/** Runs one case as production would (never giving the engine the truth) and scores it. */
export async function runCase(dir: string, options: RunOptions): Promise<CaseResult> {
  const { input, truth, meta } = await loadCase(dir);
  const scratch = await mkdtemp(join(tmpdir(), `eval-${input.id}-`));
  const clone = await cloneCase(input);
  const store = new EvidenceStore({ root: join(scratch, 'evidence') });
  const signatures = new SignatureStore(':memory:');
  try {
    const { checker, records } = recordingChecker(evidenceChecker);
    const settings = await loadPipelineSettings();
    const started = performance.now();
    const { run } = await diagnoseReport(
      pipelineInputOf(input, clone.dir, options.mode ?? defaultMode(input.report.platform)),
      {
        store,
        signatures,
        masks: settings.masks,
        engine: options.engine,
        checker,
        ...(options.delegation || options.engine.name === 'rules' ? { modules: settings.modules } : {}),
        ...(options.gate === undefined ? {} : { gate: options.gate }),
        log: pino({ level: 'silent' }),
        progress: silent,
        platformsDir: options.platformsDir,
      },
    );
    const ms = performance.now() - started;
    const none: CheckRecord = { before: { claims: 0, unsupported: 0 }, after: { claims: 0, unsupported: 0 } };
    const failures = run.failures.map(
      (d): FailureResult => ({
        issue_id: d.issue_id,
        test: d.test,
        verdict: d.verdict,
        category: d.category,
        place: d.place,
        truth: { verdict: truth.verdict, category: truth.category },
        score: scoreFailure(d, truth),
        check: records.get(d.issue_id) ?? none,
        tokens: tokensOf(d),
      }),
    );
    return {
      id: input.id,
      group: { verdict: truth.verdict, language: meta.language, real: meta.real },
      ms,
      tokens: failures.reduce((n, f) => n + f.tokens, 0),
      failures,
      error: null,
    };
  } finally {
    store.close();
    signatures.close();
    await clone.remove();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Every case of a row; a case that fails to run is reported with its error, not scored. */
export async function runRow(
  corpus: string,
  cases: readonly string[],
  options: RunOptions,
  progress: Progress,
  label: string,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  progress.start(cases.length, label);
  for (const id of cases) {
    try {
      results.push(await runCase(join(corpus, id), options));
    } catch (err: unknown) {
      results.push({ id, group: null, ms: 0, tokens: 0, failures: [], error: describeError(err) });
    }
    progress.tick(id);
  }
  progress.done();
  return results;
}
