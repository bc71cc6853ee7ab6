export { type FeedMeta, recordFacts } from './feed.ts';
export * from './schema.ts';
export {
  DEFAULT_QUERY_LIMIT,
  IN_MEMORY,
  type MainlineQuery,
  MIGRATIONS,
  type OtherChangesQuery,
  type OutcomesQuery,
  SIGNATURES_FILE,
  SignatureStore,
} from './store.ts';
