import { describe, expect, it } from 'vitest';
import type { Signal } from '../../src/schemas/index.ts';
import { targetCite, targetOf, targetsIn } from '../../src/signals/index.ts';

describe('signal targets', () => {
  it('round-trips a function target and a module-level one', () => {
    const fn = { file: 'src/a b/price.py', function: 'Cart.total', lines: { start: 3, end: 9 } };
    expect(targetCite('changed_function', fn)).toEqual({
      kind: 'signal',
      name: 'changed_function',
      detail: 'src/a b/price.py:3-9 (Cart.total)',
    });
    expect(targetOf(targetCite('changed_function', fn))?.target).toEqual(fn);
    const module = { file: 'api/fields.py', function: null, lines: { start: 9, end: 12 } };
    expect(targetOf(targetCite('fixture', module))).toMatchObject({ role: 'fixture', target: module });
    const callback = {
      file: 'test/a.test.ts',
      function: 'slugify/keeps digits',
      lines: { start: 4, end: 6 },
    };
    expect(targetOf(targetCite('stale_use', callback))?.target).toEqual(callback);
  });

  it.each([
    { kind: 'signal' as const, name: 'signature_history', detail: 'a.py:1-2 (f)' },
    { kind: 'signal' as const, name: 'callee', detail: 'no place here' },
    { kind: 'signal' as const, name: 'callee', detail: 'a.py:9-2 (f)' },
    { kind: 'signal' as const, name: 'callee', detail: 'a.py:0-2 (f)' },
    { kind: 'diff' as const, file: 'a.py' },
  ])('reads no target from %j', (cite) => {
    expect(targetOf(cite)).toBeNull();
  });

  it('collects the targets of one role in signal order', () => {
    const at = (role: 'callee' | 'fixture', fn: string): Signal => ({
      kind: 'no_diff_link',
      detail: fn,
      cites: [
        { kind: 'code', file: 'a.py', lines: { start: 1, end: 1 } },
        targetCite(role, { file: 'a.py', function: fn, lines: { start: 1, end: 2 } }),
      ],
    });
    expect(
      targetsIn([at('callee', 'f'), at('fixture', 'g'), at('callee', 'h')], 'callee').map(
        (t) => t.target.function,
      ),
    ).toEqual(['f', 'h']);
  });
});
