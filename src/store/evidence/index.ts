export { EvidenceStore, FRAGMENT_MAX_CHARS, FRAGMENT_MAX_LINES, type EvidenceStoreOptions } from './store.ts';
export * from './schema.ts';
