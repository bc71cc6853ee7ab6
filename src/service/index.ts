export { type AppDeps, buildApp, sendError } from './app.ts';
export { Counters, countingStages, renderMetrics } from './metrics.ts';
export { changeRef, RunTarget, runStage, type StageDeps } from './stages.ts';
export { crashPointFromEnv, Worker, type WorkerDeps, WorkerPool } from './worker.ts';
