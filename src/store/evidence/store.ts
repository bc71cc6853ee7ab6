import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { DiagnosisError } from '../../errors/index.ts';
import { EvidenceId } from '../../schemas/index.ts';
import { type EvidenceFragment, type EvidenceMeta, EvidenceRecord } from './schema.ts';

/**
 * Items up to this size live in the SQLite index itself: a row insert is far cheaper than a
 * file create + rename, and most traces and messages are small. Larger ones are files.
 */
export const INLINE_MAX_BYTES = 32 * 1024;

const PENDING_MAX = 500;

/** Bounds on one fragment, so no reader (least of all the model) ever gets a whole log. */
export const FRAGMENT_MAX_LINES = 400;
export const FRAGMENT_MAX_CHARS = 64_000;

/** Applied in order; `PRAGMA user_version` records how many ran, so reopening is cheap and safe. */
const MIGRATIONS = [
  `CREATE TABLE IF NOT EXISTS evidence (
     id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL,
     media_type TEXT NOT NULL, original_encoding TEXT, bytes INTEGER NOT NULL,
     lines INTEGER NOT NULL, created_at TEXT NOT NULL)`,
  // NULL body: the text is in objects/<sha256>.
  'ALTER TABLE evidence ADD COLUMN body TEXT',
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
  private readonly selectBody: Database.Statement;
  /** Rows not yet in SQLite: inserting them a batch per transaction is what keeps a put cheap. */
  private readonly pending = new Map<string, Record<string, unknown>>();
  private readonly insertBatch: () => void;
  /** Shard folders known to exist, so a put costs no mkdir. */
  private readonly shards = new Set<string>();

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
    this.migrate();
    this.insert = this.db.prepare(
      `INSERT OR IGNORE INTO evidence (id, sha256, kind, source, media_type, original_encoding, bytes, lines, created_at, body)
       VALUES (@id, @sha256, @kind, @source, @media_type, @original_encoding, @bytes, @lines, @created_at, @body)`,
    );
    this.select = this.db.prepare(
      'SELECT id, sha256, kind, source, media_type, original_encoding, bytes, lines, created_at FROM evidence WHERE id = ?',
    );
    this.selectBody = this.db.prepare('SELECT body FROM evidence WHERE id = ?').pluck();
    this.insertBatch = this.db.transaction(() => {
      for (const row of this.pending.values()) this.insert.run(row);
    });
  }

  /** Stores UTF-8 text (decode other encodings first) and returns its evidence id. */
  put(text: string, meta: EvidenceMeta): EvidenceId {
    // Typed by the caller inside the process; a zod pass per item costs more than the insert.
    const parsed = { ...meta, media_type: meta.media_type ?? 'text/plain' };
    const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
    const id = `ev_${sha256.slice(0, 24)}`;
    const bytes = Buffer.byteLength(text, 'utf8');
    const inline = bytes <= INLINE_MAX_BYTES;
    if (!inline) this.writeObject(sha256, text);
    if (this.pending.has(id)) return id;
    this.pending.set(id, {
      id,
      sha256,
      kind: parsed.kind,
      source: parsed.source,
      media_type: parsed.media_type,
      original_encoding: parsed.original_encoding ?? null,
      bytes,
      lines: countLines(text),
      created_at: this.clock().toISOString(),
      body: inline ? text : null,
    });
    if (this.pending.size >= PENDING_MAX) this.flush();
    return id;
  }

  /** Writes pending rows; reads and close call it, so callers never see a put go missing. */
  flush(): void {
    if (this.pending.size === 0) return;
    this.insertBatch();
    this.pending.clear();
  }

  get(id: string): EvidenceRecord {
    this.flush();
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
    const picked = await this.lines(record, from, last);
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

  /** The exact text stored: for deterministic programs only (parsers, the checker), never for the model. */
  async readAll(id: string): Promise<string> {
    const record = this.get(id);
    const body = this.selectBody.get(record.id) as string | null;
    return body ?? readFile(this.objectPath(record.sha256), 'utf8');
  }

  close(): void {
    this.flush();
    this.db.close();
  }

  private migrate(): void {
    const applied = this.db.pragma('user_version', { simple: true }) as number;
    this.db.transaction(() => {
      for (const sql of MIGRATIONS.slice(applied)) this.db.exec(sql);
      this.db.pragma(`user_version = ${MIGRATIONS.length}`);
    })();
  }

  private async lines(record: EvidenceRecord, from: number, to: number): Promise<string[]> {
    const body = this.selectBody.get(record.id) as string | null;
    if (body === null) return readLines(this.objectPath(record.sha256), from, to);
    if (to < from) return [];
    return body.split(/\r?\n/).slice(from - 1, Math.min(to, record.lines));
  }

  private writeObject(sha256: string, text: string): void {
    const path = this.objectPath(sha256);
    if (existsSync(path)) return;
    const shard = sha256.slice(0, 2);
    if (!this.shards.has(shard)) {
      mkdirSync(join(this.objects, shard), { recursive: true });
      this.shards.add(shard);
    }
    // Write then rename: a crash never leaves a half-written object under its final name.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, text, 'utf8');
    renameSync(tmp, path);
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
