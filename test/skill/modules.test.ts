import { describe, expect, it } from 'vitest';
import { isTestPath } from '../../src/engines/rules/index.ts';
import type { DiagnosisDraft } from '../../src/schemas/index.ts';
import { chainModules, conventionalModule, loadModuleMap, moduleMap } from '../../src/skill/index.ts';

describe('module map', () => {
  it('finds modules by directory convention below source roots', () => {
    expect(conventionalModule('orders/service.py')).toBe('orders');
    expect(conventionalModule('api/assembler/order_assembler.py')).toBe('api/assembler');
    expect(conventionalModule('src/billing/ledger.ts')).toBe('src/billing');
    expect(conventionalModule('README.md')).toBe('.');
  });

  it('lets config/modules.json name modules by globs first', async () => {
    const map = moduleMap({ modules: [{ name: 'checkout', paths: ['src/cart/**', 'src/pay/**'] }] });
    expect(map.moduleOf('src/pay/card.ts')).toBe('checkout');
    expect(map.moduleOf('src/cart/total.ts')).toBe('checkout');
    expect(map.moduleOf('src/users/login.ts')).toBe('src/users');
    expect((await loadModuleMap()).moduleOf('orders/service.py')).toBe('orders');
  });

  it('names the modules a causal chain crosses, tests left out', () => {
    const draft = {
      place: { level: 'line', file: 'orders/service.py', function: 'create', lines: { start: 3, end: 3 } },
      why: [
        { text: 'a', cites: [{ kind: 'diff', file: 'api/assembler/order_assembler.py' }] },
        { text: 'b', cites: [{ kind: 'code', file: 'tests/test_orders.py', lines: { start: 1, end: 2 } }] },
        { text: 'c', cites: [{ kind: 'fact', issue_id: '1', index: 0 }] },
      ],
    } as unknown as DiagnosisDraft;
    const modules = chainModules(draft, moduleMap({ modules: [] }), isTestPath);
    expect([...modules]).toEqual([
      ['orders', ['orders/service.py']],
      ['api/assembler', ['api/assembler/order_assembler.py']],
    ]);
  });
});
