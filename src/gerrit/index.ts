export { type BaseOption, GerritClient, type GerritClientOptions } from './client.ts';
export { GerritDiffSource, type GerritDiffSourceOptions } from './diff-source.ts';
export {
  type CallOptions,
  decodeBase64Body,
  type FetchFn,
  GerritError,
  GerritHttp,
  type GerritHttpOptions,
  type GerritResponse,
  parseGerritJson,
  parseRetryAfter,
  type SleepFn,
  type TransportOptions,
} from './http.ts';
export * from './schema.ts';
export {
  changeIdOf,
  diffContentToHunks,
  dropEndOfFileLine,
  encodeSegment,
  isMagicPath,
  toFileDiff,
} from './utils.ts';
