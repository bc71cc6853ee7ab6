import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiagnosisError } from '../../src/errors/index.ts';
import { EvidenceStore, FRAGMENT_MAX_LINES, INLINE_MAX_BYTES } from '../../src/store/evidence/index.ts';

describe('EvidenceStore', () => {
  let dir: string;
  let store: EvidenceStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'evidence-'));
    store = new EvidenceStore({ root: dir, clock: () => new Date('2026-11-30T10:00:00Z') });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same id to the same content and keeps one record', () => {
    const a = store.put('line 1\nline 2\n', { kind: 'log', source: 'http://ci/log' });
    const b = store.put('line 1\nline 2\n', { kind: 'trace', source: 'elsewhere' });

    expect(a).toBe(b);
    expect(a).toMatch(/^ev_[0-9a-f]{24}$/);
    expect(store.get(a)).toMatchObject({ kind: 'log', source: 'http://ci/log', lines: 2, bytes: 14 });
  });

  it('reads a fragment by line range', async () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const id = store.put(text, { kind: 'log', source: 'x' });

    const fragment = await store.readFragment(id, 10, 12);

    expect(fragment).toEqual({
      id,
      from: 10,
      to: 12,
      total_lines: 50,
      text: 'line 10\nline 11\nline 12',
      truncated: false,
    });
  });

  it('caps a fragment and says it was truncated', async () => {
    const text = Array.from({ length: FRAGMENT_MAX_LINES + 100 }, (_, i) => `l${i + 1}`).join('\n');
    const id = store.put(text, { kind: 'log', source: 'x' });

    const fragment = await store.readFragment(id, 1, FRAGMENT_MAX_LINES + 50);

    expect(fragment.to).toBe(FRAGMENT_MAX_LINES);
    expect(fragment.truncated).toBe(true);
    expect(fragment.text.split('\n')).toHaveLength(FRAGMENT_MAX_LINES);
  });

  it('clips a range past the end to the last line', async () => {
    const id = store.put('a\nb\nc', { kind: 'log', source: 'x' });

    const fragment = await store.readFragment(id, 2, 10);

    expect(fragment).toMatchObject({ from: 2, to: 3, text: 'b\nc', truncated: true });
  });

  it('keeps stored evidence when given a bad id or range', async () => {
    const id = store.put('kept', { kind: 'log', source: 'x' });

    expect(() => store.get('ev_000000000000000000000000')).toThrow(/not in the store/);
    expect(() => store.get('nonsense')).toThrow(DiagnosisError);
    await expect(store.readFragment(id, 5, 2)).rejects.toMatchObject({ code: 'EVIDENCE_RANGE_INVALID' });
    expect(await store.readAll(id)).toBe('kept');
  });

  it('survives a reopen: the index and files are on disk', async () => {
    const id = store.put('persisted\ntext', { kind: 'trace', source: 'x', original_encoding: 'gb18030' });
    store.close();

    store = new EvidenceStore({ root: dir });

    expect(store.get(id).original_encoding).toBe('gb18030');
    expect((await store.readFragment(id, 2, 2)).text).toBe('text');
  });

  it('keeps a large item as a content-addressed file and reads it like a small one', async () => {
    const line = 'x'.repeat(99);
    const text = Array.from(
      { length: Math.ceil((INLINE_MAX_BYTES * 2) / 100) },
      (_, i) => `${i + 1} ${line}`,
    ).join('\n');
    const id = store.put(text, { kind: 'log', source: 'big' });

    const fragment = await store.readFragment(id, 3, 4);

    expect(fragment.text).toBe(`3 ${line}\n4 ${line}`);
    expect(await store.readAll(id)).toBe(text);
    const shard = readdirSync(join(dir, 'objects'));
    expect(shard).toHaveLength(1);
    expect(
      existsSync(
        join(
          dir,
          'objects',
          shard[0] as string,
          readdirSync(join(dir, 'objects', shard[0] as string))[0] as string,
        ),
      ),
    ).toBe(true);
  });

  it.each([
    ['inline', 'a\nb\n'],
    ['file', `${'y'.repeat(INLINE_MAX_BYTES)}\nlast\n`],
  ])('returns the exact text of an %s item, trailing newline included', async (_where, text) => {
    const id = store.put(text, { kind: 'log', source: 'x' });

    expect(await store.readAll(id)).toBe(text);
    expect(store.get(id).lines).toBe(2);
  });
});
