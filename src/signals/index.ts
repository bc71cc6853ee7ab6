export { type CallScan, callLinks } from './calls.ts';
export { channelOf, channelSignals } from './channel.ts';
export { callNames, codeOf } from './code.ts';
export {
  compileMasks,
  DEFAULT_SIGNALS_CONFIG,
  EMPTY_SIGNALS_CONFIG,
  loadSignalsConfig,
  MaskEntry,
  masksFor,
  parseSignalsConfig,
  type SignalsConfig,
  SignalsConfigFile,
} from './config.ts';
export {
  ENV_PROBLEMS,
  type EnvironmentFinding,
  type EnvProblem,
  environmentFindings,
  environmentSignals,
  isAssertionReason,
} from './environment.ts';
export {
  type FlakyDeps,
  type FlakyFinding,
  flakyFindings,
  flakySignals,
  noDiffLinkSignals,
} from './flaky.ts';
export { historyCite, type SignatureHistory } from './history.ts';
export {
  calleeOf,
  changedTestFiles,
  contractLinks,
  type DiffLink,
  diffLinks,
  impactSignals,
  isManifest,
  isTestFile,
} from './impact.ts';
export { deliberateLines, intentLinks, messageNaming } from './intent.ts';
export {
  type PreExistingDeps,
  type PreExistingFinding,
  preExistingFindings,
  preExistingSignals,
} from './pre-existing.ts';
export {
  DEFAULT_MASKS,
  exceptionType,
  failureSignature,
  firstErrorLine,
  type Mask,
  normaliseReason,
  SIGNATURE_LENGTH,
  testKeyOf,
} from './signature.ts';
export { conftestsOf, isUniquenessError, parametersOf, stateLeakFindings } from './state-leak.ts';
export {
  type SignalTarget,
  TARGET_ROLES,
  type TargetedSignal,
  type TargetRole,
  targetCite,
  targetOf,
  targetsIn,
} from './targets.ts';
export { reasonLines } from './text.ts';
export {
  type Decision,
  decide,
  gatherInputs,
  type TriageDeps,
  type TriageInputs,
  type TriageRule,
  triageIssue,
} from './triage.ts';
