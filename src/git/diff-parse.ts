import parseDiff from 'parse-diff';
import { DiagnosisError } from '../errors/index.ts';
import type { FileDiff, Hunk } from './schema.ts';

/** One record of `git diff --raw -z` (https://git-scm.com/docs/diff-format#_raw_output_format). */
export interface RawChange {
  status: 'A' | 'D' | 'M' | 'T' | 'R';
  oldPath: string;
  newPath: string;
  oldOid: string;
  newOid: string;
}

/** Ids of the empty blob: an added or deleted empty file has no hunks and is not binary. */
const EMPTY_BLOBS = new Set([
  'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813',
]);

/**
 * Parses `git diff --raw -z --no-abbrev`: `:<old mode> <new mode> <old oid> <new oid> <status>`
 * then NUL-separated paths (two for a rename). With `-z` paths are verbatim, which is why paths
 * come from here and not from the patch text, where unusual names are C-quoted.
 */
export function parseRawDiff(output: string): RawChange[] {
  const fields = output.split('\0');
  const changes: RawChange[] = [];
  let i = 0;
  while (i < fields.length) {
    const header = fields[i++] as string;
    if (header === '') continue;
    const match = /^:[0-7]{6} [0-7]{6} ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([ADMTR])\d*$/.exec(header);
    if (match === null) throw unexpected(`raw diff record "${header.slice(0, 200)}"`);
    const status = match[3] as RawChange['status'];
    const oldPath = fields[i++];
    const newPath = status === 'R' ? fields[i++] : oldPath;
    if (oldPath === undefined || newPath === undefined) throw unexpected('raw diff record without its path');
    changes.push({ status, oldPath, newPath, oldOid: match[1] as string, newOid: match[2] as string });
  }
  return changes;
}

/**
 * Pairs each raw record with its part of the `-U0` patch, which git emits in the same order.
 * One exception: a type change (file ↔ symlink) is printed as a deletion then a creation,
 * so it takes two patch parts, whose hunks together describe the file.
 */
export function combineDiff(changes: readonly RawChange[], patch: string): FileDiff[] {
  const parts = parseDiff(patch);
  let next = 0;
  const files = changes.map((change) => {
    const count = change.status === 'T' ? 2 : 1;
    const own = parts.slice(next, next + count);
    next += count;
    if (own.length < count) throw unexpected(`no patch for ${change.newPath}`);
    return toFileDiff(
      change,
      own.flatMap((part) => part.chunks.map(toHunk)),
    );
  });
  if (next !== parts.length) throw unexpected(`${parts.length} patches for ${changes.length} changed files`);
  return files;
}

function toFileDiff(change: RawChange, hunks: Hunk[]): FileDiff {
  const { status, oldPath, newPath } = change;
  const file: FileDiff =
    status === 'A'
      ? { oldPath: null, newPath, status: 'added', hunks }
      : status === 'D'
        ? { oldPath, newPath: null, status: 'deleted', hunks }
        : { oldPath, newPath, status: status === 'R' ? 'renamed' : 'modified', hunks };
  // Content changed yet git printed no hunk: binary. Saying so keeps "no hunks" from meaning "unchanged".
  if (hunks.length === 0 && contentChanged(change)) file.binary = true;
  return file;
}

function contentChanged(change: RawChange): boolean {
  if (change.status === 'A') return !EMPTY_BLOBS.has(change.newOid);
  if (change.status === 'D') return !EMPTY_BLOBS.has(change.oldOid);
  return change.oldOid !== change.newOid;
}

function toHunk(chunk: parseDiff.Chunk): Hunk {
  return {
    oldStart: chunk.oldStart,
    oldLines: chunk.oldLines,
    newStart: chunk.newStart,
    newLines: chunk.newLines,
  };
}

function unexpected(what: string): DiagnosisError {
  return new DiagnosisError('GIT_ERROR', `unexpected git diff output: ${what}`);
}
