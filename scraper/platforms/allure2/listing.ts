import { emptyFailure, type RawFailure } from '../../raw.ts';
import type { CategoriesTree } from './schema.ts';

/** One failure as level 1 and level 2 show it: category → message group → test. */
export interface FailureRef {
  category: string;
  group: string;
  groupUid: string;
  testUid: string;
  testName: string;
}

/**
 * The UI sorts its tree on its own (not in data-file order), so both modes put failures in one
 * canonical order before numbering them. Allure puts a test under every category it matches;
 * the first in that order wins.
 */
export function dedupeRefs(refs: readonly FailureRef[]): FailureRef[] {
  const seen = new Set<string>();
  return [...refs]
    .sort(
      (a, b) =>
        compare(a.category, b.category) ||
        compare(a.group, b.group) ||
        compare(a.testName, b.testName) ||
        compare(a.testUid, b.testUid),
    )
    .filter((ref) => !seen.has(ref.testUid) && seen.add(ref.testUid));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function refsFromTree(tree: CategoriesTree): FailureRef[] {
  const refs: FailureRef[] = [];
  for (const category of tree.children) {
    for (const group of category.children ?? []) {
      for (const test of group.children ?? []) {
        refs.push({
          category: category.name,
          group: group.name,
          groupUid: group.uid,
          testUid: test.uid,
          testName: test.name,
        });
      }
    }
  }
  return dedupeRefs(refs);
}

/** The level-3 route the Allure 2 UI uses for a test reached through Categories. */
export function level3Url(displayUrl: string, ref: FailureRef): string {
  return `${displayUrl}#categories/${ref.groupUid}/${ref.testUid}/`;
}

/** What levels 1 and 2 told about a failure whose level-3 page could not be read. */
export function unreadableFailure(displayUrl: string, ref: FailureRef, error: string): RawFailure {
  return {
    ...emptyFailure({
      name: ref.testName,
      key: ref.testUid,
      status: 'unknown',
      url: level3Url(displayUrl, ref),
    }),
    reached_by: [ref.category, ref.group],
    report_category: ref.category,
    warnings: [`level-3 page could not be read: ${error}`],
  };
}
