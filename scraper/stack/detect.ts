import type { Language } from '../../src/schemas/facts.ts';
import { traceLines } from './limits.ts';

interface Signal {
  language: Exclude<Language, 'unknown'>;
  pattern: RegExp;
  weight: number;
}

/**
 * Line shapes that only one language prints. Scored rather than first-match because traces mix
 * text: a Go test log may quote a path, a JS message may say "at".
 */
const SIGNALS: readonly Signal[] = [
  {
    language: 'java',
    pattern:
      /^\s*at\s+[\w$./@]+\((?:[\w$.-]+\.(?:java|kt|kts|scala|groovy|clj)(?::\d+)?|Native Method|Unknown Source)\)/,
    weight: 2,
  },
  { language: 'java', pattern: /^\s*\.\.\. \d+ (?:more|common frames omitted)\s*$/, weight: 1 },
  { language: 'python', pattern: /^\s*Traceback \(most recent call last\):/, weight: 3 },
  { language: 'python', pattern: /^\s*File "[^"]+", line \d+/, weight: 2 },
  { language: 'python', pattern: /^(?:[A-Za-z]:)?[^\s:][^:]*\.py:\d+:/, weight: 2 },
  { language: 'go', pattern: /^\s*goroutine \d+ \[/, weight: 3 },
  { language: 'go', pattern: /^\s+\S+\.go:\d+(?:\s+\+0x[0-9a-fA-F]+)?\s*$/, weight: 2 },
  { language: 'go', pattern: /^\s*[\w.\-/]+\.go:\d+:(?:\s|$)/, weight: 2 },
  { language: 'go', pattern: /^\s*--- FAIL: \S+ \(/, weight: 1 },
  { language: 'javascript', pattern: /^\s*at\s.*:\d+:\d+\)?\s*$/, weight: 2 },
  { language: 'javascript', pattern: /^\s*at\s.*\((?:<anonymous>|native|index \d+)\)\s*$/, weight: 1 },
  { language: 'javascript', pattern: /^\s*❯\s.*\S:\d+:\d+\s*$/, weight: 2 },
  {
    language: 'javascript',
    pattern: /^\s*(?:[^@\s]*|(?:global|eval|module) code)@\S+:\d+:\d+\s*$/,
    weight: 2,
  },
];

export function detectLanguage(trace: string): Language {
  const scores = new Map<Language, number>();
  for (const line of traceLines(trace)) {
    for (const signal of SIGNALS) {
      if (signal.pattern.test(line))
        scores.set(signal.language, (scores.get(signal.language) ?? 0) + signal.weight);
    }
  }
  let best: Language = 'unknown';
  let bestScore = 0;
  for (const [language, score] of scores) {
    if (score > bestScore) [best, bestScore] = [language, score];
  }
  return best;
}
