import type { FileDiff, GitObjects } from '../git/index.ts';
import type { CodeParser, CodeSpan } from '../locate/anchor/index.ts';
import { languageOfPath } from '../locate/anchor/index.ts';
import type { FactsDocument } from '../schemas/index.ts';
import type { EvidenceFragment, EvidenceRecord } from '../store/evidence/index.ts';

/** Code at the revision under diagnosis, read from git objects only. */
export interface RevisionCode {
  readonly revision: string;
  /** A file's text, or null when the path does not exist at the revision. */
  read(path: string): Promise<string | null>;
  /** Every file path at the revision. */
  list(): Promise<readonly string[]>;
  /** Functions a real parser finds in the file (empty for unknown languages or missing files). */
  functions(path: string): Promise<readonly CodeSpan[]>;
}

/** The evidence store as later stages may use it: by id, by fragment. */
export interface EvidenceReader {
  get(id: string): EvidenceRecord;
  readFragment(id: string, from?: number, to?: number): Promise<EvidenceFragment>;
  /** Whole text: for deterministic checks (verbatim quotes) only, never handed to a model. */
  readAll(id: string): Promise<string>;
}

/**
 * Everything the signals, the engines, their tools and the checker may read about one run,
 * all read-only: the facts (with the locator's verified candidates), the code at the revision,
 * the change's diff and the evidence store.
 */
export interface DiagnosisContext {
  readonly facts: FactsDocument;
  readonly revision: string;
  /** The revision's commit message: what the change says it intends (a contract change on purpose…). */
  readonly message: string;
  /** What the change is diffed against (the first parent by default); null when unknown. */
  readonly base: string | null;
  readonly code: RevisionCode;
  /** Code at the base, for the text of lines the change removed; null without a base. */
  readonly baseCode: RevisionCode | null;
  /** The change's diff, base → revision (Gerrit's or git's). */
  readonly diff: readonly FileDiff[];
  readonly evidence: EvidenceReader;
}

/** Reads code at one revision through git objects and the tree-sitter parser, caching parses. */
export function revisionCode(objects: GitObjects, parser: CodeParser, revision: string): RevisionCode {
  const parsed = new Map<string, Promise<readonly CodeSpan[]>>();
  const functions = async (path: string): Promise<readonly CodeSpan[]> => {
    const language = languageOfPath(path);
    const text = language === null ? null : await objects.readFile(revision, path);
    return language === null || text === null ? [] : parser.functions(text, language);
  };
  return {
    revision,
    read: (path) => objects.readFile(revision, path),
    list: () => objects.listFiles(revision),
    functions: (path) => {
      const cached = parsed.get(path) ?? functions(path);
      parsed.set(path, cached);
      return cached;
    },
  };
}
