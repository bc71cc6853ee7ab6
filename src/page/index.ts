export type { CodeReader } from './context.ts';
export { type FragmentReader, PAGE_EVIDENCE_LIMITS } from './evidence.ts';
export { EVIDENCE_FORM_FIELDS, EVIDENCE_FORM_KINDS, type EvidenceFormKind } from './form.ts';
export { escapeHtml, externalUrl } from './html.ts';
export { type RunPageInput, renderRunPage } from './page.ts';
