import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { evidenceChecker } from '../../src/check/index.ts';
import { PLATFORMS_DIR } from '../../src/cli/main.ts';
import { diagnoseReport, type Engine, rulesEngine } from '../../src/diagnose/index.ts';
import { type CaseInput, cloneCase, loadCase } from '../../src/eval/case.ts';
import type { DiagnosisRun, FactsDocument } from '../../src/schemas/index.ts';
import { loadSignalsConfig, masksFor } from '../../src/signals/index.ts';
import { loadModuleMap } from '../../src/skill/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { SignatureStore } from '../../src/store/signatures/index.ts';
import { silentProgress } from '../helpers/scrape-context.ts';

export const CORPUS = new URL('../corpus/', import.meta.url).pathname;

/** Diagnoses one corpus case as production would: report, repository, revision, history — never the truth. */
export async function runCase(id: string, engine: Engine = rulesEngine) {
  const { input, truth } = await loadCase(join(CORPUS, id));
  const clone = await cloneCase(input);
  const dir = mkdtempSync(join(tmpdir(), `acceptance-${id}-`));
  const store = new EvidenceStore({ root: join(dir, 'evidence') });
  const signatures = new SignatureStore(':memory:');
  try {
    const masks = masksFor(await loadSignalsConfig(), input.repository);
    const { facts, run } = await diagnoseReport(pipelineInput(input, clone.dir), {
      store,
      signatures,
      masks,
      engine,
      checker: evidenceChecker,
      modules: await loadModuleMap(),
      log: pino({ level: 'silent' }),
      progress: silentProgress,
      platformsDir: PLATFORMS_DIR,
    });
    return { facts, run, truth, input };
  } finally {
    store.close();
    signatures.close();
    await clone.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

function pipelineInput(input: CaseInput, repo: string) {
  return {
    report: { report: join(input.dir, input.report.path), platform: input.report.platform },
    repo,
    revision: input.revision,
    base: input.base,
    project: input.repository,
    branch: 'main',
    history: input.history.map((h) => ({
      report: join(input.dir, h.path),
      platform: h.platform,
      revision: h.revision,
    })),
    target: {
      runId: `acceptance-${input.id}`,
      project: input.repository,
      change: 1,
      patchset: 1,
      reportUrl: null,
      pageUrl: null,
    },
  };
}

export type CaseRun = { facts: FactsDocument; run: DiagnosisRun };
