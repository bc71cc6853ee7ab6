export { type ClaudeEngineOptions, claudeEngine } from './claude-engine.ts';
export {
  chooseEngine,
  createEngine,
  DEFAULT_BUDGET,
  DEFAULT_MODEL,
  DEFAULT_REPAIR_BUDGET,
  DEFAULT_RUN_TOKENS,
  type EngineChoice,
  type EngineSettings,
} from './engine-choice.ts';
export { diagnoseFailure, type FailureDeps, type FailureOutcome } from './failure.ts';
export {
  diagnoseContext,
  diagnoseReport,
  type PipelineDeps,
  type PipelineInput,
  type PipelineStage,
  type ReportRef,
  scrape,
} from './pipeline.ts';
export {
  addUsage,
  type Checker,
  type CheckInput,
  type Engine,
  type EngineResult,
  NO_USAGE,
  type Triager,
} from './ports.ts';
export { repairReport } from './repair-report.ts';
export { rulesEngine } from './rules-engine.ts';
export { diagnoseRun, type RunDeps, type RunTarget } from './run.ts';
export { loadPipelineSettings, type PipelineSettings } from './settings.ts';
