export { diagnoseByRules, type RulesTrace } from './engine.ts';
export { isFixturePath, isTestPath } from './test-paths.ts';
export { rerunCommand } from './verify-command.ts';
