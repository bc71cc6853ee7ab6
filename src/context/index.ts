export { type DiagnosisContext, type EvidenceReader, type RevisionCode, revisionCode } from './context.ts';
export { type ContextDeps, openContext } from './open.ts';
