import { GREENING_RULES, type GreeningRule } from './rules.ts';

/** One greening rule that matched, and the words that matched it. */
export interface GreeningHit {
  rule: GreeningRule;
  match: string;
}

/** Where a text comes from: advice (change, fix description) or a verify command. */
export type TextScope = 'advice' | 'verify';

/** "Do not skip the test", "instead of deleting the assertion": the advice argues against it. */
const NEGATION =
  /\b(?:not|never|no|nor|don't|dont|doesn't|cannot|can't|shouldn't|mustn't|won't|avoid|avoiding|instead\s+of|rather\s+than|without|stop|refrain\s+from)\b/i;

/** "Remove the `@Disabled`", "re-enable the skipped test": the advice undoes the greening. */
const UNDO =
  /^(?:remove|removing|delete|deleting|drop|dropping|revert|reverting|undo|undoing|re-?enable|re-?enabling|unskip|un-skip|restore|restoring|reinstate|reinstating|uncomment|un-comment|replace|replacing|rid)$/i;

/** "Replace the assertion with `assertTrue(true)`": what follows these words is added, not undone. */
const ADD = /^(?:with|to|add|adding|use|using|insert|inserting|put|by|into|as)$/i;

/** Words before a match that can change its sense: the clause's last few. */
const WINDOW_WORDS = 5;

/** Every greening rule of this scope whose wording or marker appears in `text`, except where argued against. */
export function scanText(text: string, scope: TextScope): GreeningHit[] {
  const hits: GreeningHit[] = [];
  for (const rule of GREENING_RULES) {
    if (scope === 'verify' && rule.form === 'prose' && rule.scope === 'advice') continue;
    const hit = firstCounted(text, rule);
    if (hit !== null) hits.push({ rule, match: hit });
  }
  return hits;
}

/** Every code marker in `text`, each counted: an edit's before and after are compared by these counts. */
export function countMarkers(text: string): Map<GreeningRule, number> {
  const counts = new Map<GreeningRule, number>();
  for (const rule of GREENING_RULES) {
    if (rule.form !== 'code') continue;
    const n = [...text.matchAll(globalOf(rule.pattern))].length;
    if (n > 0) counts.set(rule, n);
  }
  return counts;
}

function firstCounted(text: string, rule: GreeningRule): string | null {
  for (const match of text.matchAll(globalOf(rule.pattern))) {
    const at = match.index;
    if (argued(text.slice(0, at))) continue;
    if (rule.unlessAfter?.test(sentenceAfter(text, at + match[0].length))) continue;
    return match[0];
  }
  return null;
}

/** True when the words just before a match, in its clause, negate or undo it. */
function argued(before: string): boolean {
  const clause = before.split(/[.!?;:]\s|\n|,\s|\s[-–—]\s|\(/).pop() ?? '';
  const words = clause.trim().split(/\s+/).slice(-WINDOW_WORDS);
  if (NEGATION.test(words.join(' '))) return true;
  for (let i = words.length - 1; i >= 0; i--) {
    const word = (words[i] as string).replace(/[^\w-]/g, '');
    if (UNDO.test(word)) return true;
    if (ADD.test(word)) return false;
  }
  return false;
}

function sentenceAfter(text: string, from: number): string {
  const rest = text.slice(from);
  const end = rest.search(/[.!?;]\s|\n/);
  return end === -1 ? rest : rest.slice(0, end);
}

const globals = new WeakMap<RegExp, RegExp>();

function globalOf(pattern: RegExp): RegExp {
  let global = globals.get(pattern);
  if (global === undefined) {
    global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    globals.set(pattern, global);
  }
  return global;
}
