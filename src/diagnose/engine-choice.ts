import {
  type ClaudeBudget,
  createClaudeClient,
  createClaudeEngine,
  type ModelInput,
  PLAIN_SYSTEM,
} from '../engines/claude/index.ts';
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
  input?: ModelInput;
}

/** Everything an engine is made from, whichever source (environment, service config) said it. */
export interface EngineSettings {
  engine: 'rules' | 'claude';
  apiKey: string | null;
  baseURL: string | null;
  model: string;
  budget: ClaudeBudget;
  repairBudget: ClaudeBudget;
  /** What the model is given: the Skill and the gated facts (default), or an ablation's lesser input. */
  input?: ModelInput;
}

export async function createEngine(settings: EngineSettings): Promise<Engine> {
  if (settings.engine === 'rules') return rulesEngine;
  if (settings.apiKey === null || settings.apiKey === '') {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      'the claude engine needs ANTHROPIC_API_KEY in the environment',
      {
        input: 'ANTHROPIC_API_KEY',
      },
    );
  }
  const client = createClaudeClient({
    apiKey: settings.apiKey,
    ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
  });
  return claudeEngine({
    engine: createClaudeEngine({ client }),
    model: settings.model,
    system: (settings.input ?? 'skill') === 'skill' ? (await loadSkill()).system : PLAIN_SYSTEM,
    budget: settings.budget,
    repairBudget: settings.repairBudget,
    ...(settings.input === undefined ? {} : { input: settings.input }),
  });
}

/**
 * For the CLI: Claude when a key is configured (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL for a proxy
 * or a test server), the built-in rules engine otherwise — and the run's engine line says which.
 */
export function chooseEngine(env: NodeJS.ProcessEnv, choice: EngineChoice = {}): Promise<Engine> {
  const key = env.ANTHROPIC_API_KEY ?? null;
  return createEngine({
    engine: choice.engine ?? (key ? 'claude' : 'rules'),
    apiKey: key,
    baseURL: env.ANTHROPIC_BASE_URL || null,
    model: choice.model ?? env.CI_DIAGNOSIS_MODEL ?? DEFAULT_MODEL,
    budget: DEFAULT_BUDGET,
    repairBudget: DEFAULT_REPAIR_BUDGET,
    ...(choice.input === undefined ? {} : { input: choice.input }),
  });
}
