import { describe, expect, it } from 'vitest';
import { scanEdit } from '../../src/check/index.ts';

function kinds(before: string, after: string): string[] {
  return scanEdit(before.split('\n'), after.split('\n')).map((h) => `${h.rule.kind}: ${h.rule.what}`);
}

describe('what a fix edit does to a test', () => {
  it.each([
    ['python', '    assert unit_price(250, 1) == 3', '    unit_price(250, 1)'],
    ['javascript', '  expect(cart.total()).toBe(2);', '  cart.total();'],
    ['java', '    assertEquals(250, new Invoice(250).total());', '    new Invoice(250).total();'],
    ['go', '\t\tt.Fatalf("balance = %d, want 5", got)', '\t\t_ = got'],
  ])('flags a removed assertion (%s)', (_language, before, after) => {
    expect(kinds(before, after)).toContain('assertion: removes an assertion without replacing it');
  });

  it.each([
    ['python', '    assert unit_price(250, 1) == 3', '    # assert unit_price(250, 1) == 3'],
    ['javascript', '  expect(cart.total()).toBe(2);', '  // expect(cart.total()).toBe(2);'],
  ])('flags a commented-out assertion (%s)', (_language, before, after) => {
    expect(kinds(before, after)).toContain('assertion: comments out an assertion');
  });

  it.each([
    ['python', '    assert unit_price(250, 1) == 2', '    assert unit_price(250, 1) == 3'],
    ['javascript', '  expect(cart.total()).toBe(2);', '  expect(cart.total()).toBe(3);'],
    [
      'java',
      '    assertEquals(250, new Invoice(250).total());',
      '    assertEquals(300, new Invoice(250).total());',
    ],
    [
      'go',
      '\tif got := l.Balance("a"); got != 5 {\n\t\tt.Fatalf("balance = %d, want 5", got)',
      '\tif got := l.Balance("a"); got != 6 {\n\t\tt.Fatalf("balance = %d, want 6", got)',
    ],
    [
      'production code',
      '    return int(total)',
      '    return total.quantize(Decimal("1"), rounding=ROUND_HALF_UP)',
    ],
  ])('lets a changed expected value or a code fix pass (%s)', (_language, before, after) => {
    expect(kinds(before, after)).toEqual([]);
  });

  it.each([
    [
      'python',
      'def test_rounds_half_up():',
      '@pytest.mark.skip(reason="later")\ndef test_rounds_half_up():',
      'skip',
    ],
    ['javascript', "it('totals the items', () => {", "it.skip('totals the items', () => {", 'skip'],
    ['java', '  @Test', '  @Test\n  @Disabled', 'skip'],
    ['go', 'func TestPost(t *testing.T) {', 'func TestPost(t *testing.T) {\n\tt.Skip("later")', 'skip'],
    [
      'python',
      '    total = compute()',
      '    try:\n        total = compute()\n    except Exception:\n        pass',
      'swallow',
    ],
    ['java', '    run();', '    try { run(); } catch (Exception e) {}', 'swallow'],
    ['javascript', "describe('cart', () => {", "describe('cart', () => {\n  jest.retryTimes(3);", 'retry'],
    [
      'javascript',
      "  it('imports', async () => {",
      "  jest.setTimeout(120000);\n  it('imports', async () => {",
      'timeout',
    ],
    ['python', '    client = Client(timeout=5)', '    client = Client(timeout=60)', 'timeout'],
  ])('flags an added marker (%s → %s)', (_language, before, after, kind) => {
    expect(kinds(before, after).map((k) => k.split(':')[0])).toContain(kind);
  });

  it('does not count a marker the test already had', () => {
    const before = '@pytest.mark.skip(reason="windows only")\ndef test_paths():\n    assert sep == "/"';
    const after = '@pytest.mark.skip(reason="windows only")\ndef test_paths():\n    assert sep == "\\\\"';
    expect(kinds(before, after)).toEqual([]);
  });

  it('lets a lowered timeout pass', () => {
    expect(kinds('    client = Client(timeout=60)', '    client = Client(timeout=5)')).toEqual([]);
  });
});
