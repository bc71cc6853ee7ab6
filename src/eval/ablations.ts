import { DiagnosisError } from '../errors/index.ts';

/** The rows of the evaluation (issue 7 "Ablations"); `rules` always runs. */
export const ABLATIONS = ['rules', 'diff+model', 'facts+model', 'facts+gate+skill', '+delegation'] as const;
export type Ablation = (typeof ABLATIONS)[number];

/** What the harness does for one row. */
export type RowPlan =
  | { ablation: Ablation; run: 'rules' }
  | { ablation: Ablation; run: 'claude'; delegation: boolean }
  | { ablation: Ablation; run: 'skip'; reason: string };

/** The model ablations the harness cannot run yet, and why. */
const NOT_IMPLEMENTED: Partial<Record<Ablation, string>> = {
  'diff+model': 'not implemented yet: the pipeline has no diff-only model input',
  'facts+model': 'not implemented yet: the location gate and the Skill cannot be switched off',
};

export function parseAblations(names: readonly string[] | undefined): Ablation[] {
  if (names === undefined || names.length === 0) return [...ABLATIONS];
  const wanted = names.flatMap((n) => n.split(',')).filter((n) => n.length > 0);
  for (const name of wanted) {
    if (!(ABLATIONS as readonly string[]).includes(name))
      throw new DiagnosisError('INVALID_ARGUMENT', `unknown ablation "${name}" (${ABLATIONS.join(', ')})`, {
        input: name,
      });
  }
  return ABLATIONS.filter((a) => a === 'rules' || wanted.includes(a));
}

/**
 * Which rows run: `rules` always; the model rows only with the claude engine and a key — never
 * faked, each skipped row says why.
 */
export function planRows(
  ablations: readonly Ablation[],
  engine: 'rules' | 'claude',
  hasKey: boolean,
): RowPlan[] {
  return ablations.map((ablation): RowPlan => {
    if (ablation === 'rules') return { ablation, run: 'rules' };
    if (!hasKey) return { ablation, run: 'skip', reason: 'no ANTHROPIC_API_KEY: model rows need a key' };
    if (engine === 'rules') return { ablation, run: 'skip', reason: '--engine rules: model rows not run' };
    const missing = NOT_IMPLEMENTED[ablation];
    if (missing !== undefined) return { ablation, run: 'skip', reason: missing };
    return { ablation, run: 'claude', delegation: ablation === '+delegation' };
  });
}
