import { type ClaudeBudget, createClaudeClient, createClaudeEngine } from '../engines/claude/index.ts';
import { DiagnosisError } from '../errors/index.ts';
import { loadSkill } from '../skill/index.ts';
import { claudeEngine } from './claude-engine.ts';
import type { Engine } from './ports.ts';
import { rulesEngine } from './rules-engine.ts';

export const DEFAULT_MODEL = 'claude-sonnet-4-5';
export const DEFAULT_BUDGET: ClaudeBudget = { toolCalls: 20, tokens: 200_000, wallMs: 180_000 };
/** Tokens for one run's failures together, after which the rules engine takes the rest. */
export const DEFAULT_RUN_TOKENS = 2_000_000;
export const DEFAULT_REPAIR_BUDGET: ClaudeBudget = { toolCalls: 8, tokens: 60_000, wallMs: 60_000 };

export interface EngineChoice {
  engine?: 'rules' | 'claude';
  model?: string;
}

/**
 * Claude when a key is configured (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL for a proxy or a test
 * server), the built-in rules engine otherwise — and the run's engine line says which.
 */
export async function chooseEngine(env: NodeJS.ProcessEnv, choice: EngineChoice = {}): Promise<Engine> {
  const key = env.ANTHROPIC_API_KEY;
  const wanted = choice.engine ?? (key ? 'claude' : 'rules');
  if (wanted === 'rules') return rulesEngine;
  if (!key) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      'the claude engine needs ANTHROPIC_API_KEY in the environment',
      {
        input: 'ANTHROPIC_API_KEY',
      },
    );
  }
  const client = createClaudeClient({
    apiKey: key,
    ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}),
  });
  return claudeEngine({
    engine: createClaudeEngine({ client }),
    model: choice.model ?? env.CI_DIAGNOSIS_MODEL ?? DEFAULT_MODEL,
    system: (await loadSkill()).system,
    budget: DEFAULT_BUDGET,
    repairBudget: DEFAULT_REPAIR_BUDGET,
  });
}
