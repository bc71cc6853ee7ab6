import { z } from 'zod';
import { passedKeysOf } from '../pages.ts';
import type { ScrapeContext } from '../types.ts';
import { PATHS, type ReportData, readJson } from './files.ts';
import { TestResult } from './schema.ts';
import { failureKey } from './shown.ts';

/** `widgets/environments.json`: the environments, each with its own widget folder. */
const Environments = z.array(z.object({ id: z.string() }).loose());
/** `widgets/<environment>/tree.json`: every test result of the run (the timeline leaves some out). */
const Tree = z
  .object({
    leavesById: z.record(z.string(), z.object({ nodeId: z.string(), status: z.string() }).loose()),
  })
  .loose();

/**
 * The keys of the tests that passed (per environment's tree), made as failures' keys are
 * (fullName and parameters, from each result's own file).
 */
export async function passedKeys(
  data: ReportData,
  ctx: ScrapeContext,
): Promise<{ keys: string[]; warnings: string[] }> {
  const environments = await readJson(data, 'widgets/environments.json', Environments, ctx.input);
  const ids: string[] = [];
  for (const { id: env } of environments?.value ?? [{ id: 'default' }]) {
    const tree = await readJson(data, `widgets/${env}/tree.json`, Tree, ctx.input);
    if (tree === null)
      return { keys: [], warnings: [`widgets/${env}/tree.json is missing: passed tests not listed`] };
    // A leaf is a test's final result (its `retry` flag says it was retried, not that it is one).
    for (const leaf of Object.values(tree.value.leavesById))
      if (leaf.status === 'passed') ids.push(leaf.nodeId);
  }
  return passedKeysOf(ids, ctx, async (id) => {
    const got = await readJson(data, PATHS.testResult(id), TestResult, ctx.input);
    if (got === null) throw new Error(`${PATHS.testResult(id)} is missing`);
    const r = got.value;
    return failureKey(
      r.fullName ?? null,
      r.name,
      r.parameters.map((p) => ({ name: p.name, value: p.value })),
    );
  });
}
