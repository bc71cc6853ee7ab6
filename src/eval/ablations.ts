import type { ModelInput } from '../engines/claude/index.ts';
import { DiagnosisError } from '../errors/index.ts';

/** The rows of the evaluation (issue 7 "Ablations"); `rules` always runs. */
export const ABLATIONS = ['rules', 'diff+model', 'facts+model', 'facts+gate+skill', '+delegation'] as const;
export type Ablation = (typeof ABLATIONS)[number];

/** How a model row is run: what the model is given, whether the checker gates, delegation. */
export interface ModelRow {
  input: ModelInput;
  gate: boolean;
  delegation: boolean;
}

/** What the harness does for one row. */
export type RowPlan =
  | { ablation: Ablation; run: 'rules' }
  | ({ ablation: Ablation; run: 'claude' } & ModelRow)
  | { ablation: Ablation; run: 'skip'; reason: string };

/**
 * The design's ablations. Without the gate the model's draft is the output as submitted (the
 * checker only counts what it could not tie to evidence); with it, repair and degrade apply.
 */
const MODEL_ROWS: Record<Exclude<Ablation, 'rules'>, ModelRow> = {
  'diff+model': { input: 'diff', gate: false, delegation: false },
  'facts+model': { input: 'facts', gate: false, delegation: false },
  'facts+gate+skill': { input: 'skill', gate: true, delegation: false },
  '+delegation': { input: 'skill', gate: true, delegation: true },
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
    return { ablation, run: 'claude', ...MODEL_ROWS[ablation] };
  });
}
