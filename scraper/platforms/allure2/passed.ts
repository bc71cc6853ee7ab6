import { z } from 'zod';
import { passedKeysOf } from '../pages.ts';
import type { ScrapeContext } from '../types.ts';
import type { ReportFiles } from './files.ts';
import { TestCase } from './schema.ts';

/** A node of `data/suites.json`: groups with children, test cases without. */
interface SuiteNode {
  uid?: string | undefined;
  status?: string | undefined;
  children?: SuiteNode[] | undefined;
}
const SuiteNode: z.ZodType<SuiteNode> = z.lazy(() =>
  z.object({
    uid: z.string().optional(),
    status: z.string().optional(),
    children: z.array(SuiteNode).optional(),
  }),
);

/**
 * The keys (historyId, as failures are keyed) of the tests that passed. suites.json lists every
 * test with its status but not its historyId, so each passed test's own file is read.
 */
export async function passedKeys(
  files: ReportFiles,
  ctx: ScrapeContext,
): Promise<{ keys: string[]; warnings: string[] }> {
  const got = await files.bytes('data/suites.json');
  if (got === null) return { keys: [], warnings: ['data/suites.json is missing: passed tests not listed'] };
  const uids = leaves(SuiteNode.parse(JSON.parse(got.body.toString('utf8'))))
    .filter((n) => n.status === 'passed' && n.uid !== undefined)
    .map((n) => n.uid as string);
  return passedKeysOf(uids, ctx, async (uid) => {
    const testCase = await files.json(`data/test-cases/${uid}.json`, TestCase);
    return testCase.historyId ?? testCase.fullName ?? testCase.name;
  });
}

function leaves(node: SuiteNode): SuiteNode[] {
  return node.children === undefined ? [node] : node.children.flatMap(leaves);
}
