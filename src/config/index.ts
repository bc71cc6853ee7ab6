export {
  eventPolicy,
  gerritConnection,
  type ModelSettings,
  modelSettings,
  publishOptions,
  type StoragePaths,
  secretMatches,
  sourceAllowList,
  storagePaths,
} from './derive.ts';
export {
  describeConfig,
  maskSecrets,
  REDACTED,
  redactionPaths,
  redactUrlQuery,
  secretValues,
} from './describe.ts';
export {
  ConfigError,
  type ConfigProblem,
  type ConfigSource,
  DEFAULT_CONFIG_PATH,
  describeSource,
  type Env,
  type LoadedConfig,
  type LoadOptions,
  loadConfig,
  nodeReadFile,
  type ReadFile,
} from './load.ts';
export { ConfigSchema, parseCidr, type RawConfig, RawConfigSchema, type ServiceConfig } from './schema.ts';
export {
  CONFIG_FILE_ENV,
  CRASH_AFTER_ENV,
  envNameOf,
  envTable,
  knownEnvNames,
  SETTINGS,
  type Setting,
  type SettingKind,
} from './settings.ts';
