import pLimit from 'p-limit';
import { z } from 'zod';
import { describeError } from '../../../src/errors/index.ts';
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
 * The keys of the tests that passed (per environment's tree), made as failures' keys are (fullName and parameters, from
 * each result's own file); a result that cannot be read is counted in a warning, not guessed.
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
  const limit = pLimit(ctx.limits.concurrency * 8);
  let unreadable = 0;
  const keys = await Promise.all(
    ids.map((id) =>
      limit(async () => {
        try {
          const got = await readJson(data, PATHS.testResult(id), TestResult, ctx.input);
          if (got === null) throw new Error(`${PATHS.testResult(id)} is missing`);
          const r = got.value;
          return failureKey(
            r.fullName ?? null,
            r.name,
            r.parameters.map((p) => ({ name: p.name, value: p.value })),
          );
        } catch (err: unknown) {
          unreadable++;
          ctx.log.warn({ id, err: describeError(err) }, 'passed test result unreadable');
          return null;
        }
      }),
    ),
  );
  return {
    keys: [...new Set(keys.filter((k): k is string => k !== null))],
    warnings: unreadable === 0 ? [] : [`${unreadable} passed test result file(s) could not be read`],
  };
}
