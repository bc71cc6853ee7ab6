import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { DiagnosisError } from '../../errors/index.ts';
import { EvidenceId } from '../../schemas/index.ts';
import { type EvidenceFragment, EvidenceMeta, EvidenceRecord } from './schema.ts';

/** Bounds on one fragment, so no reader (least of all the model) ever gets a whole log. */
export const FRAGMENT_MAX_LINES = 400;
export const FRAGMENT_MAX_CHARS = 64_000;

const MIGRATIONS = [
  `CREATE TABLE IF NOT EXISTS evidence (
     id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL,
     media_type TEXT NOT NULL, original_encoding TEXT, bytes INTEGER NOT NULL,
     lines INTEGER NOT NULL, created_at TEXT NOT NULL)`,
];

export interface EvidenceStoreOptions {
  /** Folder holding `objects/` (content-addressed files) and `evidence.sqlite` (the index). */
  root: string;
  clock?: () => Date;
}

/**
 * Content-addressed evidence: the same bytes always get the same id, so re-scraping a report
 * stores nothing twice and ids stay valid across runs.
 */
export class EvidenceStore {
  private readonly db: Database.Database;
  private readonly objects: string;
  private readonly clock: () => Date;
  private readonly insert: Database.Statement;
  private readonly select: Database.Statement;

  constructor(options: EvidenceStoreOptions) {
    mkdirSync(options.root, { recursive: true });
    this.objects = join(options.root, 'objects');
    mkdirSync(this.objects, { recursive: true });
    this.clock = options.clock ?? (() => new Date());
    this.db = new Database(join(options.root, 'evidence.sqlite'));
    this.db.pragma('journal_mode = WAL');
    // WAL + NORMAL stays consistent on a crash and skips an fsync per insert; evidence is
    // re-derivable from the report, so the last few rows on power loss are an acceptable risk.
    this.db.pragma('synchronous = NORMAL');
    for (const sql of MIGRATIONS) this.db.exec(sql);
    this.insert = this.db.prepare(
      `INSERT OR IGNORE INTO evidence (id, sha256, kind, source, media_type, original_encoding, bytes, lines, created_at)
       VALUES (@id, @sha256, @kind, @source, @media_type, @original_encoding, @bytes, @lines, @created_at)`,
    );
    this.select = this.db.prepare('SELECT * FROM evidence WHERE id = ?');
  }

  /** Stores UTF-8 text (decode other encodings first) and returns its evidence id. */
  put(text: string, meta: EvidenceMeta): EvidenceId {
    const parsed = EvidenceMeta.parse(meta);
    const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
    const id = `ev_${sha256.slice(0, 24)}`;
    const path = this.objectPath(sha256);
    if (!existsSync(path)) {
      mkdirSync(join(this.objects, sha256.slice(0, 2)), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, text, 'utf8');
      renameSync(tmp, path);
    }
    this.insert.run({
      id,
      sha256,
      kind: parsed.kind,
      source: parsed.source,
      media_type: parsed.media_type,
      original_encoding: parsed.original_encoding ?? null,
      bytes: Buffer.byteLength(text, 'utf8'),
      lines: countLines(text),
      created_at: this.clock().toISOString(),
    });
    return id;
  }

  get(id: string): EvidenceRecord {
    const checked = EvidenceId.safeParse(id);
    if (!checked.success) {
      throw new DiagnosisError('EVIDENCE_NOT_FOUND', `evidence id "${id}" is not a valid evidence id`, {
        input: id,
      });
    }
    const row = this.select.get(id);
    if (row === undefined) {
      throw new DiagnosisError('EVIDENCE_NOT_FOUND', `evidence "${id}" is not in the store`, { input: id });
    }
    return EvidenceRecord.parse(row);
  }

  /** Reads lines `from`..`to` (1-based, inclusive), capped by FRAGMENT_MAX_LINES/CHARS. */
  async readFragment(id: string, from = 1, to = from + FRAGMENT_MAX_LINES - 1): Promise<EvidenceFragment> {
    const record = this.get(id);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
      throw new DiagnosisError(
        'EVIDENCE_RANGE_INVALID',
        `line range ${from}-${to} of "${id}" is not a valid range`,
        {
          input: id,
        },
      );
    }
    const last = Math.min(to, from + FRAGMENT_MAX_LINES - 1, record.lines);
    const picked = await readLines(this.objectPath(record.sha256), from, last);
    const joined = picked.join('\n');
    const truncated = last < to || joined.length > FRAGMENT_MAX_CHARS;
    return {
      id: record.id,
      from,
      to: Math.max(last, from - 1),
      total_lines: record.lines,
      text: joined.slice(0, FRAGMENT_MAX_CHARS),
      truncated,
    };
  }

  /** The whole text: for deterministic programs only (parsers, the checker), never for the model. */
  async readAll(id: string): Promise<string> {
    const record = this.get(id);
    const lines = await readLines(this.objectPath(record.sha256), 1, Number.MAX_SAFE_INTEGER);
    return lines.join('\n');
  }

  close(): void {
    this.db.close();
  }

  private objectPath(sha256: string): string {
    return join(this.objects, sha256.slice(0, 2), sha256.slice(2));
  }
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

async function readLines(path: string, from: number, to: number): Promise<string[]> {
  const out: string[] = [];
  if (to < from) return out;
  const reader = createInterface({
    input: createReadStream(path, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let n = 0;
  for await (const line of reader) {
    n++;
    if (n >= from) out.push(line);
    if (n >= to) break;
  }
  reader.close();
  return out;
}
