import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusCase, cloneCase, loadCase, pipelineInputOf } from '../../src/eval/case.ts';
import { listCases } from '../../src/eval/run.ts';
import { CORPUS } from '../acceptance/run-case.ts';

const ids = await listCases(CORPUS);
const cases = ids.map((id) => ({
  id,
  raw: CorpusCase.parse(JSON.parse(readFileSync(join(CORPUS, id, 'case.json'), 'utf8'))),
}));
const real = cases.filter((c) => c.raw.provenance !== undefined);

/** The revision's commit message as the bundle holds it: what an engine reads. */
async function revisionMessage(id: string): Promise<string> {
  const { input } = await loadCase(join(CORPUS, id));
  const clone = await cloneCase(input);
  try {
    return execFileSync('git', ['-C', clone.dir, 'log', '-1', '--format=%B', input.revision], {
      encoding: 'utf8',
    });
  } finally {
    await clone.remove();
  }
}

describe('the public corpus (test/corpus, issue 7)', () => {
  it('has at least 30 real-bug cases in at least three languages, with every verdict and category', () => {
    expect(real.length).toBeGreaterThanOrEqual(30);
    expect(new Set(real.map((c) => c.raw.language)).size).toBeGreaterThanOrEqual(3);
    const verdicts = new Set(real.map((c) => c.raw.truth.verdict));
    expect([...verdicts].sort()).toEqual(['caused_by_change', 'environment', 'flaky', 'pre_existing']);
    const categories = new Set(real.map((c) => c.raw.truth.category));
    for (const category of [
      'code_regression',
      'stale_test_expectation',
      'fixture_or_mock',
      'environment',
      'flaky',
      'pre_existing',
    ])
      expect(categories, category).toContain(category);
  });

  it.each(ids)('%s: loads without its truth or provenance reaching the engine input', async (id) => {
    const { input, truth } = await loadCase(join(CORPUS, id));
    expect(Object.keys(input)).not.toContain('truth');
    expect(Object.keys(input)).not.toContain('provenance');
    expect(truth.failures).toBeGreaterThan(0);
    expect(existsSync(join(CORPUS, id, input.report.path))).toBe(true);
    for (const h of input.history) expect(existsSync(join(CORPUS, id, h.path)), h.path).toBe(true);
    // The report is the CI run of the revision, and CI says so: the pipeline is told.
    expect(pipelineInputOf(input, '/repo')).toMatchObject({
      revision: input.revision,
      reportRevision: input.revision,
      base: input.base,
    });
  });

  it.each(real.map((c) => [c.id, c.raw] as const))(
    '%s: the change says nothing of where it came from',
    async (id, raw) => {
      const message = await revisionMessage(id);
      const upstream = raw.provenance?.commit ?? '';
      for (const text of [message, raw.description]) {
        expect(text).not.toMatch(/\brevert/i);
        expect(text).not.toContain(upstream.slice(0, 7));
        expect(text).not.toMatch(/github\.com/);
      }
    },
  );
});
