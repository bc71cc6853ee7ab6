import type { FactsDocument, Issue, Location } from '../schemas/index.ts';
import type { LocateTarget, Locator } from './locator.ts';

/** Project frames located per issue: the failure, the test, and the frames between, bounded. */
export const MAX_FRAMES_PER_ISSUE = 10;

/**
 * Adds verified candidates to every issue of a facts document. Library and runtime frames are
 * not located: they are not the project's code and the revision under review cannot move them.
 */
export async function locateDocument(
  facts: FactsDocument,
  target: LocateTarget & { repository: string },
  locator: Locator,
  clock: () => Date = () => new Date(),
): Promise<FactsDocument> {
  const issues: Issue[] = [];
  for (const issue of facts.issues) {
    const frames = framesToLocate(issue.locations);
    const candidates = [];
    for (const frame of frames) candidates.push(await locator.locate(frame, target));
    issues.push({ ...issue, candidates });
  }
  return {
    ...facts,
    issues,
    located: {
      repository: target.repository,
      revision: target.revision,
      report_revision: target.reportRevision,
      diff_base: target.diffBase,
      located_at: clock().toISOString(),
    },
  };
}

function framesToLocate(locations: readonly Location[]): Location[] {
  const project = locations.filter((l) => !l.library);
  const byRole = (role: Location['role']) => project.filter((l) => l.role === role);
  return [...byRole('failure'), ...byRole('test'), ...byRole('frame')].slice(0, MAX_FRAMES_PER_ISSUE);
}
