import { describe, expect, it } from 'vitest';
import { requireRepoPath, requireRevision, safeRepoPath } from '../../src/git/index.ts';

describe('safeRepoPath', () => {
  it.each([
    ['src/order/create_order.py', 'src/order/create_order.py'],
    ['a/./b', 'a/b'],
    ['./a//b/', 'a/b'],
    ['a/../b', 'b'],
    ['a\\b\\c.java', 'a/b/c.java'],
    ['dir with space/ü.ts', 'dir with space/ü.ts'],
    ['..foo/bar..', '..foo/bar..'],
  ])('normalises %j to %j', (candidate, expected) => {
    expect(safeRepoPath(candidate)).toBe(expected);
  });

  it.each([
    ['../etc/passwd'],
    ['/etc/passwd'],
    ['a/../../b'],
    ['a/b/../../..'],
    ['C:\\x'],
    ['c:/x/y'],
    ['..\\..\\windows\\win.ini'],
    ['\\\\server\\share\\x'],
    ['//server/share'],
    [''],
    ['.'],
    ['a/..'],
    ['a\0b'],
    ['a\nb'],
    ['x'.repeat(5000)],
  ])('refuses %j', (candidate) => {
    expect(safeRepoPath(candidate)).toBeNull();
  });

  it('throws PATH_REFUSED from requireRepoPath, naming the path', () => {
    expect(() => requireRepoPath('../../etc/shadow')).toThrow(
      expect.objectContaining({ code: 'PATH_REFUSED', input: '../../etc/shadow' }),
    );
  });
});

describe('requireRevision', () => {
  it.each([['HEAD'], ['refs/changes/45/12345/3'], ['a1b2c3d'], ['main~2']])('accepts %j', (rev) => {
    expect(requireRevision(rev)).toBe(rev);
  });

  it.each([[''], ['--upload-pack=evil'], ['a b'], ['HEAD\nHEAD'], ['x\0y']])('refuses %j', (rev) => {
    expect(() => requireRevision(rev)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
