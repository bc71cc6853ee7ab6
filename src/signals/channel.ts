import type { Citation, Issue, IssueCategory, Signal, Triage } from '../schemas/index.ts';
import { firstErrorLine } from './signature.ts';
import { clip, factCite } from './text.ts';

const BUILD: ReadonlySet<IssueCategory> = new Set(['compilation_error', 'dependency_resolution']);

/** Compilation and dependency failures take the build channel; everything else the test channel. */
export function channelOf(issue: Pick<Issue, 'category'>): Triage['channel'] {
  return BUILD.has(issue.category) ? 'build' : 'test';
}

/** The `build_channel` signal, citing the facts the scraper classified the failure from. */
export function channelSignals(issue: Issue): Signal[] {
  if (channelOf(issue) !== 'build') return [];
  const cites: Citation[] = [];
  issue.facts.forEach((f, i) => {
    if (f.type === 'error' || f.type === 'trace') cites.push(factCite(issue, i));
  });
  const what =
    issue.category === 'compilation_error'
      ? 'code that does not compile'
      : 'a dependency that does not resolve';
  return [
    {
      kind: 'build_channel',
      detail: `the report shows ${what} (${issue.category}): "${clip(firstErrorLine(issue))}"`,
      cites,
    },
  ];
}
