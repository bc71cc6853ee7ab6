import type { DiagnosisRun, FactsDocument, Issue } from '../schemas/index.ts';
import type { EvidenceView } from './evidence.ts';
import type { GerritLinks } from './gerrit-links.ts';

/** Code at the run's revision, when the server has it: `RevisionCode.read` fits. */
export interface CodeReader {
  /** A file's text, or null when the path does not exist at the revision. */
  read(path: string): Promise<string | null>;
}

/** What every part of the page reads from: the run, its facts, links and bounded evidence. */
export interface PageContext {
  readonly run: DiagnosisRun;
  readonly facts: FactsDocument;
  readonly issues: ReadonlyMap<string, Issue>;
  readonly gerrit: GerritLinks;
  readonly evidence: EvidenceView;
  readonly code: CodeReader | null;
}
