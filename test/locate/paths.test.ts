import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES_PATH, indexFiles, loadPathRules, mapReportPath } from '../../src/locate/index.ts';

const REPO = indexFiles([
  'src/cart.ts',
  'src/checkout.ts',
  'billing/src/main/java/com/example/billing/Invoice.java',
  'billing/src/test/java/com/example/billing/InvoiceTest.java',
  'inventory/units.py',
  'tools/a/util.py',
  'tools/b/util.py',
]);

describe('mapReportPath', async () => {
  const rules = await loadPathRules(DEFAULT_RULES_PATH);

  it.each([
    ['a repository path as is', 'src/cart.ts', 'src/cart.ts'],
    ['a Jenkins workspace', '/home/jenkins/workspace/shop-ci/src/cart.ts', 'src/cart.ts'],
    ['a GitHub runner checkout', '/home/runner/work/shop/shop/src/checkout.ts', 'src/checkout.ts'],
    ['an unknown absolute checkout', '/work/build-7/x/src/cart.ts', 'src/cart.ts'],
    [
      'a Java package path',
      'com/example/billing/Invoice.java',
      'billing/src/main/java/com/example/billing/Invoice.java',
    ],
    [
      'an installed Python package',
      '/usr/lib/python3.11/site-packages/inventory/units.py',
      'inventory/units.py',
    ],
    ['a build output', 'dist/cart.js', 'src/cart.ts'],
  ])('maps %s', (_label, reported, expected) => {
    expect(mapReportPath(reported, REPO, rules).file).toBe(expected);
  });

  it('keeps a tie visible instead of picking one', () => {
    const mapped = mapReportPath('util.py', REPO, rules);

    expect(mapped.file).toBeNull();
    expect(mapped.tied).toEqual(['tools/a/util.py', 'tools/b/util.py']);
  });

  it.each([
    ['../../etc/passwd'],
    ['/etc/passwd'],
    ['src/../../outside.ts'],
    ['C:/Windows/system32/drivers/etc/hosts'],
  ])('maps %s to nothing inside the repository', (reported) => {
    const mapped = mapReportPath(reported, REPO, rules);

    expect(mapped.file).toBeNull();
    expect(mapped.candidates).toEqual([]);
  });
});
