import { createHash } from 'node:crypto';
import type { DiagnosisContext, EvidenceReader, RevisionCode } from '../../src/context/index.ts';
import { DiagnosisError } from '../../src/errors/index.ts';
import type { FileDiff } from '../../src/git/index.ts';
import { type CodeParser, type CodeSpan, languageOfPath } from '../../src/locate/anchor/index.ts';
import type {
  DiffImpact,
  Fact,
  FactsDocument,
  Issue,
  Location,
  VerifiedLocation,
} from '../../src/schemas/index.ts';

/** Evidence kept in memory with the store's id scheme, so facts can point at it. */
export class MemoryEvidence implements Pick<EvidenceReader, 'readAll'> {
  private readonly texts = new Map<string, string>();

  put(text: string): string {
    const id = `ev_${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24)}`;
    this.texts.set(id, text);
    return id;
  }

  async readAll(id: string): Promise<string> {
    const text = this.texts.get(id);
    if (text === undefined)
      throw new DiagnosisError('EVIDENCE_NOT_FOUND', `evidence "${id}" is not in the store`);
    return text;
  }
}

/** A failure as the facts builder writes it: status, error (first line), trace in the evidence. */
export function issueWith(
  parts: {
    message?: string;
    trace?: string;
    facts?: Fact[];
    category?: Issue['category'];
    name?: string;
    key?: string;
    full_name?: string | null;
    candidates?: VerifiedLocation[];
    locations?: Location[];
  },
  evidence: MemoryEvidence = new MemoryEvidence(),
): Issue {
  const facts: Fact[] = [{ type: 'status', value: 'broken' }];
  if (parts.message !== undefined) {
    const head =
      parts.message
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.trim() ?? '';
    facts.push(
      head === parts.message.trim()
        ? { type: 'error', value: head }
        : { type: 'error', value: head, evidence: evidence.put(parts.message), truncated: true },
    );
  }
  if (parts.trace !== undefined) {
    const lines = parts.trace.split('\n').length;
    facts.push({
      type: 'trace',
      value: `${parts.trace.split('\n')[0]} (${lines} lines)`,
      evidence: evidence.put(parts.trace),
    });
  }
  facts.push(...(parts.facts ?? []));
  const name = parts.name ?? 'creates an order';
  return {
    id: '001',
    category: parts.category ?? 'test_error',
    status: 'broken',
    summary: `${name}: ${parts.message ?? 'broken'}`,
    test: { name, full_name: parts.full_name ?? null, key: parts.key ?? `orders#${name}` },
    url: 'http://ci/report/#001',
    reached_by: ['Test defects', 'orders'],
    facts,
    locations: parts.locations ?? [],
    warnings: [],
    ...(parts.candidates === undefined ? {} : { candidates: parts.candidates }),
  };
}

export function location(
  file: string,
  line: number,
  fn: string | null,
  role: Location['role'] = 'failure',
): Location {
  return {
    role,
    file,
    line,
    column: null,
    function: fn,
    snippet: null,
    language: 'javascript',
    library: false,
    frame_index: 0,
  };
}

/** A verified candidate at line level with the given diff impact. */
export function candidate(
  file: string,
  line: number,
  impact: Partial<DiffImpact> & Pick<DiffImpact, 'kind'>,
  role: Location['role'] = 'failure',
  fn = 'handle',
): VerifiedLocation {
  return {
    level: 'line',
    file,
    function: { name: fn, lines: { start: Math.max(1, line - 3), end: line + 3 } },
    lines: { start: line, end: line },
    reasons: [],
    diff_impact: { changed_lines: [], related_functions: [], ...impact },
    candidate: null,
    alternatives: [],
    reported: { role, frame_index: 0, file, line, function: fn },
  };
}

export function modified(path: string, hunks: Array<[number, number]>): FileDiff {
  return {
    oldPath: path,
    newPath: path,
    status: 'modified',
    hunks: hunks.map(([newStart, newLines]) => ({
      oldStart: newStart,
      oldLines: newLines,
      newStart,
      newLines,
    })),
  };
}

/** Code at a revision from literal function lists, for the contract-link lookup. */
export function codeWith(functions: Record<string, CodeSpan[]> = {}): RevisionCode {
  return {
    revision: 'f'.repeat(40),
    read: async () => null,
    list: async () => Object.keys(functions),
    functions: async (path) => functions[path] ?? [],
  };
}

/**
 * Code at a revision from file texts, parsed by the real tree-sitter parser (as `revisionCode`
 * does), so call and fixture lookups see the spans production sees.
 */
export function codeFrom(files: Record<string, string>, parser: () => CodeParser): RevisionCode {
  return {
    revision: 'f'.repeat(40),
    read: async (path) => files[path] ?? null,
    list: async () => Object.keys(files),
    functions: async (path) => {
      const language = languageOfPath(path);
      const text = files[path];
      return language === null || text === undefined ? [] : parser().functions(text, language);
    },
  };
}

/** A diff entry from explicit hunks `[oldStart, oldLines, newStart, newLines]`. */
export function changed(path: string, hunks: Array<[number, number, number, number]>): FileDiff {
  return {
    oldPath: path,
    newPath: path,
    status: 'modified',
    hunks: hunks.map(([oldStart, oldLines, newStart, newLines]) => ({
      oldStart,
      oldLines,
      newStart,
      newLines,
    })),
  };
}

export function contextWith(
  parts: {
    diff?: FileDiff[];
    evidence?: Pick<EvidenceReader, 'readAll'>;
    code?: RevisionCode;
    baseCode?: RevisionCode | null;
    revision?: string;
    issues?: Issue[];
    message?: string;
  } = {},
): DiagnosisContext {
  const evidence = parts.evidence ?? new MemoryEvidence();
  const facts: FactsDocument = {
    schema_version: 1,
    run: {
      repository: 'shop',
      change_id: null,
      patchset: 2,
      revision_sha: parts.revision ?? 'f'.repeat(40),
      report_url: 'http://ci/report/',
      platform: 'allure2',
      mode: 'data',
      scraped_at: '2026-09-17T10:00:00.000Z',
      environment: [],
      warnings: [],
    },
    issues: parts.issues ?? [],
  };
  return {
    facts,
    revision: parts.revision ?? 'f'.repeat(40),
    message: parts.message ?? 'A change',
    base: 'e'.repeat(40),
    code: parts.code ?? codeWith(),
    baseCode: parts.baseCode ?? null,
    diff: parts.diff ?? [],
    evidence: {
      get: () => {
        throw new Error('not used by the signals');
      },
      readFragment: () => {
        throw new Error('not used by the signals');
      },
      readAll: (id) => evidence.readAll(id),
    },
  };
}
