import type { CategoriesWidget } from './schema.ts';
import { shownText } from './shown.ts';

/** One failed or broken test as levels 1 and 2 show it. */
export interface FailureRef {
  /** Test result id: the level-3 route and `data/test-results/<id>.json`. */
  id: string;
  /** Leaf title at level 2, for progress and warnings. */
  title: string;
  /** Category, then message group titles. */
  reachedBy: string[];
  category: string;
}

/** Statuses the scraper reports; categories may also match passed or skipped tests. */
export const FAILING = new Set(['failed', 'broken']);

/**
 * The failures of `widgets/categories.json` in the order the #categories page lists them:
 * roots in order, children depth first. Only category and message levels become `reachedBy`:
 * other groupings (allurerc `groupBy` labels, environments) render their titles with icons
 * and translations the page does not expose as text. A test is listed once, under the first
 * category that matched it.
 */
export function failuresInTree(tree: CategoriesWidget): FailureRef[] {
  const refs: FailureRef[] = [];
  const seen = new Set<string>();
  const walk = (id: string, path: string[], category: string, depth: number): void => {
    const node = tree.nodes[id];
    // A cycle or absurd depth means a corrupt file; stop rather than recurse forever.
    if (node === undefined || depth > 32) return;
    if (node.type === 'tr') {
      if (node.status !== undefined && FAILING.has(node.status) && !seen.has(node.id)) {
        seen.add(node.id);
        refs.push({ id: node.id, title: node.name, reachedBy: path, category });
      }
      return;
    }
    const title = shownText(node.name) ?? '';
    const titled = node.type === 'category' || node.type === 'message' ? [...path, title] : path;
    for (const child of node.childrenIds ?? []) {
      walk(child, titled, node.type === 'category' ? title : category, depth + 1);
    }
  };
  for (const root of tree.roots) walk(root, [], '', 0);
  return refs;
}

/** The level-3 route the UI uses for a test under #categories. */
export function level3Url(displayUrl: string, id: string): string {
  return `${displayUrl}#categories/${id}`;
}
