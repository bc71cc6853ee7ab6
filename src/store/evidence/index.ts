export * from './schema.ts';
export {
  EvidenceStore,
  type EvidenceStoreOptions,
  FRAGMENT_MAX_CHARS,
  FRAGMENT_MAX_LINES,
  INLINE_MAX_BYTES,
} from './store.ts';
