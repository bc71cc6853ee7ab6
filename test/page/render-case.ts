import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { evidenceChecker } from '../../src/check/index.ts';
import { PLATFORMS_DIR } from '../../src/cli/main.ts';
import { diagnoseReport, rulesEngine } from '../../src/diagnose/index.ts';
import { cloneCase, loadCase } from '../../src/eval/case.ts';
import { GitObjects } from '../../src/git/index.ts';
import type { CodeReader } from '../../src/page/index.ts';
import type { DiagnosisRun, FactsDocument } from '../../src/schemas/index.ts';
import { loadSignalsConfig, masksFor } from '../../src/signals/index.ts';
import { loadModuleMap } from '../../src/skill/index.ts';
import { EvidenceStore } from '../../src/store/evidence/index.ts';
import { SignatureStore } from '../../src/store/signatures/index.ts';
import { CORPUS } from '../acceptance/run-case.ts';
import { silentProgress } from '../helpers/scrape-context.ts';

export interface CaseOutcome {
  facts: FactsDocument;
  run: DiagnosisRun;
  /** Still open: the page reads its fragments. */
  store: EvidenceStore;
  /** Code at the case's revision. */
  code: CodeReader;
}

/**
 * Diagnoses a corpus case with the rules engine as `runCase` does (test/acceptance/run-case.ts),
 * but hands the still-open evidence store and the code at the revision to `use` before closing
 * them: the report page reads evidence fragments and code while it renders.
 */
export async function withCase<T>(id: string, use: (outcome: CaseOutcome) => Promise<T>): Promise<T> {
  const { input } = await loadCase(join(CORPUS, id));
  const clone = await cloneCase(input);
  const dir = mkdtempSync(join(tmpdir(), `page-${id}-`));
  const store = new EvidenceStore({ root: join(dir, 'evidence') });
  const signatures = new SignatureStore(':memory:');
  const objects = new GitObjects(join(clone.dir, '.git'));
  try {
    const masks = masksFor(await loadSignalsConfig(), input.repository);
    const { facts, run } = await diagnoseReport(
      {
        report: { report: join(input.dir, input.report.path), platform: input.report.platform },
        repo: clone.dir,
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
          runId: `page-${input.id}`,
          project: input.repository,
          change: 42,
          patchset: 3,
          reportUrl: null,
          pageUrl: null,
        },
      },
      {
        store,
        signatures,
        masks,
        engine: rulesEngine,
        checker: evidenceChecker,
        modules: await loadModuleMap(),
        log: pino({ level: 'silent' }),
        progress: silentProgress,
        platformsDir: PLATFORMS_DIR,
      },
    );
    const code: CodeReader = { read: (path) => objects.readFile(input.revision, path) };
    return await use({ facts, run, store, code });
  } finally {
    await objects.close();
    store.close();
    signatures.close();
    await clone.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}
