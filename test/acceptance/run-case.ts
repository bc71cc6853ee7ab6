import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { evidenceChecker } from '../../src/check/index.ts';
import { PLATFORMS_DIR } from '../../src/cli/main.ts';
import {
  diagnoseReport,
  type Engine,
  loadPipelineSettings,
  type RunTarget,
  rulesEngine,
} from '../../src/diagnose/index.ts';
import {
  type CaseInput,
  type CorpusCase,
  cloneCase,
  loadCase,
  pipelineInputOf,
} from '../../src/eval/case.ts';
import { GitObjects } from '../../src/git/index.ts';
import type { DiagnosisRun, FactsDocument } from '../../src/schemas/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { SignatureStore } from '../../src/store/signatures/index.ts';
import { silentProgress } from '../helpers/scrape-context.ts';

export const CORPUS = new URL('../corpus/', import.meta.url).pathname;

export interface CaseOutcome {
  facts: FactsDocument;
  run: DiagnosisRun;
  /** Read only to score. */
  truth: CorpusCase['truth'];
  input: CaseInput;
  /** Still open while `use` runs: a page reads its fragments. */
  store: EvidenceStore;
  /** Code at the case's revision. */
  code: { read(path: string): Promise<string | null> };
}

/**
 * Diagnoses one corpus case as production would — report, repository, revision, history, never
 * the truth — and hands the outcome to `use` while the evidence store and the code are open.
 */
export async function withCaseRun<T>(
  id: string,
  options: { engine?: Engine; target?: Partial<RunTarget> },
  use: (outcome: CaseOutcome) => Promise<T>,
): Promise<T> {
  const { input, truth } = await loadCase(join(CORPUS, id));
  const clone = await cloneCase(input);
  const dir = mkdtempSync(join(tmpdir(), `case-${id}-`));
  const store = new EvidenceStore({ root: join(dir, 'evidence') });
  const signatures = new SignatureStore(':memory:');
  const objects = await GitObjects.openLocal(clone.dir);
  try {
    const pipelineInput = pipelineInputOf(input, clone.dir);
    const { facts, run } = await diagnoseReport(
      { ...pipelineInput, target: { ...pipelineInput.target, ...options.target } },
      {
        store,
        signatures,
        ...(await loadPipelineSettings()),
        engine: options.engine ?? rulesEngine,
        checker: evidenceChecker,
        log: pino({ level: 'silent' }),
        progress: silentProgress,
        platformsDir: PLATFORMS_DIR,
      },
    );
    const code = { read: (path: string) => objects.readFile(input.revision, path) };
    return await use({ facts, run, truth, input, store, code });
  } finally {
    await objects.close();
    store.close();
    signatures.close();
    await clone.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The diagnosis of one case (the store closed afterwards). */
export function runCase(id: string, engine: Engine = rulesEngine) {
  return withCaseRun(id, { engine }, async ({ facts, run, truth, input }) => ({ facts, run, truth, input }));
}
