import { describe, expect, it } from 'vitest';
import type { Location, VerifiedLocation } from '../../src/schemas/index.ts';
import { callLinks, callNames, codeOf, targetsIn } from '../../src/signals/index.ts';
import { useParser } from '../locate/anchor/helpers.ts';
import { changed, codeFrom, issueWith } from './helpers.ts';

const parser = useParser();

/** A located frame as the locator verifies it. */
function frame(
  file: string,
  o: {
    level?: VerifiedLocation['level'];
    line?: number | null;
    fn?: [string, number, number] | null;
    role?: Location['role'];
    index?: number;
    reported?: number | null;
  } = {},
): VerifiedLocation {
  const line = o.line ?? null;
  const level = o.level ?? 'line';
  return {
    level,
    file,
    function: o.fn == null ? null : { name: o.fn[0], lines: { start: o.fn[1], end: o.fn[2] } },
    lines: level === 'line' && line !== null ? { start: line, end: line } : null,
    reasons: [],
    diff_impact: { kind: 'untouched', changed_lines: [], related_functions: [] },
    candidate: null,
    alternatives: [],
    reported: {
      role: o.role ?? 'frame',
      frame_index: o.index ?? 0,
      file,
      line: o.reported === undefined ? line : o.reported,
      function: o.fn?.[0] ?? null,
    },
  };
}

const PRICE = `from decimal import Decimal


def gross_price(net, rate):
    cents = int(net * (1 + rate) * 100)
    return Decimal(cents).scaleb(-2)


def net_price(gross, rate):
    return gross / (1 + rate)
`;

const TEST_PRICE = `from pricing.price import gross_price, net_price


def test_rounds():
    # gross_price(1) in a comment calls nothing
    assert gross_price(Decimal("2.50"), Decimal("0.07")) == Decimal("2.68")


def test_net():
    assert net_price(Decimal("2.68"), Decimal("0.07")) == Decimal("2.50")
`;

const priceCode = () =>
  codeFrom(
    { 'pricing/price.py': PRICE, 'tests/test_price.py': TEST_PRICE, 'pricing/tax.py': 'X = 1\n' },
    parser,
  );

describe('callLinks: a frame calls a function this change modified in another file', () => {
  it('links the failing assertion to the changed function it calls: strong, cited, with a target', async () => {
    const issue = issueWith({
      candidates: [frame('tests/test_price.py', { line: 6, fn: ['test_rounds', 4, 6], role: 'test' })],
    });
    const { links, untouched } = await callLinks(issue, {
      diff: [changed('pricing/price.py', [[5, 1, 5, 1]])],
      code: priceCode(),
    });
    expect(untouched).toEqual([]);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ strength: 'strong', via: 'call', file: 'pricing/price.py' });
    expect(links[0]?.signal).toEqual({
      kind: 'diff_impact',
      detail:
        'the test frame tests/test_price.py:6 (test_rounds) calls gross_price, which this change modified in pricing/price.py (line 5)',
      cites: [
        { kind: 'diff', file: 'pricing/price.py', lines: { start: 5, end: 5 } },
        { kind: 'code', file: 'tests/test_price.py', lines: { start: 6, end: 6 } },
        { kind: 'code', file: 'pricing/price.py', lines: { start: 4, end: 6 } },
        { kind: 'signal', name: 'changed_function', detail: 'pricing/price.py:4-6 (gross_price)' },
      ],
    });
    expect(targetsIn([links[0]?.signal as never], 'changed_function')[0]?.target).toEqual({
      file: 'pricing/price.py',
      function: 'gross_price',
      lines: { start: 4, end: 6 },
    });
  });

  it('names an unmodified callee of the failing assertion as no_diff_link, with a callee target', async () => {
    const issue = issueWith({
      candidates: [frame('tests/test_price.py', { line: 10, fn: ['test_net', 9, 10], role: 'test' })],
    });
    const { links, untouched } = await callLinks(issue, {
      diff: [changed('pricing/price.py', [[5, 1, 5, 1]])],
      code: priceCode(),
    });
    expect(links).toEqual([]);
    expect(untouched).toHaveLength(1);
    expect(untouched[0]?.kind).toBe('no_diff_link');
    expect(untouched[0]?.detail).toBe(
      'the failing line tests/test_price.py:10 calls net_price (pricing/price.py:9-10), which this change did not modify (it modified other lines of pricing/price.py)',
    );
    expect(targetsIn(untouched, 'callee').map((t) => t.target.function)).toEqual(['net_price']);
  });

  it('says nothing about unmodified callees when a project frame is inside the test frame', async () => {
    const issue = issueWith({
      candidates: [
        frame('tests/test_price.py', { line: 10, fn: ['test_net', 9, 10], role: 'test', index: 0 }),
        frame('pricing/tax.py', { line: 1, role: 'failure', index: 1 }),
      ],
    });
    const { untouched } = await callLinks(issue, {
      diff: [changed('pricing/price.py', [[5, 1, 5, 1]])],
      code: priceCode(),
    });
    expect(untouched).toEqual([]);
  });

  const HANDLER = `from api.assembler import to_command
from orders import audit


def post_orders(service, payload):
    command = to_command(payload)
    order = service.create(command)
    audit(order)
    return order
`;
  const handlerCode = () =>
    codeFrom(
      {
        'api/handlers.py': HANDLER,
        'api/assembler.py': 'def to_command(payload):\n    return dict(payload)\n',
        'orders/audit.py': 'def audit(order):\n    print(order)\n',
        'orders/service.py':
          'class Service:\n    def create(self, command):\n        raise ValueError("x")\n',
        'tests/test_api.py': 'def test_post():\n    post_orders(Service(), {})\n',
      },
      parser,
    );
  const handlerIssue = () =>
    issueWith({
      candidates: [
        frame('tests/test_api.py', { line: 2, fn: ['test_post', 1, 2], role: 'test', index: 0 }),
        frame('api/handlers.py', { line: 7, fn: ['post_orders', 5, 9], index: 1 }),
        frame('orders/service.py', { line: 3, fn: ['create', 2, 3], role: 'failure', index: 2 }),
      ],
    });

  it("links a call made earlier in a frame's function, and not one made after the failing line", async () => {
    const { links } = await callLinks(handlerIssue(), {
      diff: [changed('api/assembler.py', [[2, 1, 2, 1]]), changed('orders/audit.py', [[2, 1, 2, 1]])],
      code: handlerCode(),
    });
    expect(links.map((l) => l.signal.detail)).toEqual([
      'the frame api/handlers.py:7 (post_orders) calls to_command on line 6, before the failing line, which this change modified in api/assembler.py (line 2)',
    ]);
  });

  it('leaves out functions on the stack and callees in the frame’s own file (the locator covers those)', async () => {
    const { links } = await callLinks(handlerIssue(), {
      // `create` is a frame; post_orders is a frame too (the test calls it).
      diff: [changed('orders/service.py', [[3, 1, 3, 1]]), changed('api/handlers.py', [[9, 1, 9, 1]])],
      code: handlerCode(),
    });
    expect(links).toEqual([]);
  });

  it('orders links outer frame first, then by line: Python prints the outermost frame first', async () => {
    const code = codeFrom(
      {
        'tests/test_api.py': 'def test_post():\n    seed()\n    post_orders(Service(), {})\n',
        'tests/fixtures.py': 'def seed():\n    return 1\n',
        'api/handlers.py': HANDLER,
        'api/assembler.py': 'def to_command(payload):\n    return dict(payload)\n',
        'orders/service.py':
          'class Service:\n    def create(self, command):\n        raise ValueError("x")\n',
      },
      parser,
    );
    const issue = issueWith({
      candidates: [
        frame('orders/service.py', { line: 3, fn: ['create', 2, 3], role: 'failure', index: 2 }),
        frame('api/handlers.py', { line: 7, fn: ['post_orders', 5, 9], index: 1 }),
        frame('tests/test_api.py', { line: 3, fn: ['test_post', 1, 3], role: 'test', index: 0 }),
      ],
    });
    const { links } = await callLinks(issue, {
      diff: [changed('api/assembler.py', [[2, 1, 2, 1]]), changed('tests/fixtures.py', [[2, 1, 2, 1]])],
      code,
    });
    expect(links.map((l) => [l.file, l.via])).toEqual([
      ['tests/fixtures.py', 'test'],
      ['api/assembler.py', 'call'],
    ]);
  });

  const CONTROLLER_TEST = `package a;

class LoginTest {
    @Test
    void logsIn() {
        Response r = controller.login(form("ada"));
        assertEquals(200, r.status());
        audit.record(r);
    }
}
`;
  const CONTROLLER = `package a;

class Controller {
    Response login(Map<String, String> form) {
        return check(form);
    }

    Response status() {
        return null;
    }
}
`;
  const AUDIT = `package a;

class Audit {
    void record(Response r) {
        log(r);
    }
}
`;
  const javaCode = () =>
    codeFrom(
      {
        'src/test/java/a/LoginTest.java': CONTROLLER_TEST,
        'src/main/java/a/Controller.java': CONTROLLER,
        'src/main/java/a/Audit.java': AUDIT,
      },
      parser,
    );
  const javaDiff = [
    changed('src/main/java/a/Controller.java', [[5, 1, 5, 1]]),
    changed('src/main/java/a/Audit.java', [[5, 1, 5, 1]]),
  ];

  it('bounds a function-level frame by its reported line (the JVM prints the innermost frame first)', async () => {
    const issue = issueWith({
      candidates: [
        frame('src/test/java/a/LoginTest.java', {
          level: 'function',
          fn: ['LoginTest.logsIn', 4, 9],
          role: 'test',
          index: 1,
          reported: 7,
        }),
      ],
    });
    const { links } = await callLinks(issue, { diff: javaDiff, code: javaCode() });
    expect(links.map((l) => [l.strength, l.signal.detail])).toEqual([
      [
        'strong',
        'the test frame src/test/java/a/LoginTest.java:7 (LoginTest.logsIn) calls Controller.login on line 6, before the failing line, which this change modified in src/main/java/a/Controller.java (line 5)',
      ],
    ]);
  });

  it('orders JVM frames outer first too, though the JVM prints them innermost first', async () => {
    const code = codeFrom(
      {
        'src/test/java/a/LoginTest.java': CONTROLLER_TEST,
        'src/main/java/a/Controller.java': CONTROLLER,
        'src/main/java/a/Audit.java': AUDIT,
        'src/main/java/a/Log.java':
          'package a;\n\nclass Log {\n    static void log(Object o) {\n        System.out.println(o);\n    }\n}\n',
      },
      parser,
    );
    const issue = issueWith({
      candidates: [
        frame('src/main/java/a/Audit.java', {
          line: 5,
          fn: ['Audit.record', 4, 6],
          role: 'failure',
          index: 0,
        }),
        frame('src/test/java/a/LoginTest.java', {
          level: 'function',
          fn: ['LoginTest.logsIn', 4, 9],
          role: 'test',
          index: 1,
          reported: 6,
        }),
      ],
    });
    const { links } = await callLinks(issue, {
      diff: [
        changed('src/main/java/a/Controller.java', [[5, 1, 5, 1]]),
        changed('src/main/java/a/Log.java', [[5, 1, 5, 1]]),
      ],
      code,
    });
    expect(links.map((l) => l.file)).toEqual(['src/main/java/a/Controller.java', 'src/main/java/a/Log.java']);
  });

  it('scans a whole function only weakly when the reported line is not in it', async () => {
    const issue = issueWith({
      candidates: [
        frame('src/test/java/a/LoginTest.java', {
          level: 'function',
          fn: ['LoginTest.logsIn', 4, 9],
          role: 'test',
          reported: 40,
        }),
      ],
    });
    const { links } = await callLinks(issue, { diff: javaDiff, code: javaCode() });
    expect(links.map((l) => [l.file, l.strength])).toEqual([
      ['src/main/java/a/Controller.java', 'weak'],
      ['src/main/java/a/Audit.java', 'weak'],
    ]);
    expect(links[0]?.signal.detail).toContain('the locator did not confirm it');
  });

  it('reads a file-level frame only on its reported line, and weakly', async () => {
    const issue = issueWith({
      candidates: [frame('src/test/java/a/LoginTest.java', { level: 'file', role: 'test', reported: 6 })],
    });
    const { links } = await callLinks(issue, { diff: javaDiff, code: javaCode() });
    expect(links.map((l) => [l.file, l.strength])).toEqual([['src/main/java/a/Controller.java', 'weak']]);
  });

  it('follows one hop through an unmodified function of a changed file, and only weakly', async () => {
    const wrapped = `${PRICE}

def quote(net, rate):
    return gross_price(net, rate)
`;
    const test = 'def test_quote():\n    assert quote(1, 0) == 1\n';
    const issue = issueWith({
      candidates: [frame('tests/test_quote.py', { line: 2, fn: ['test_quote', 1, 2], role: 'test' })],
    });
    const code = codeFrom({ 'pricing/price.py': wrapped, 'tests/test_quote.py': test }, parser);
    const { links } = await callLinks(issue, { diff: [changed('pricing/price.py', [[5, 1, 5, 1]])], code });
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ strength: 'weak', via: 'call', file: 'pricing/price.py' });
    expect(links[0]?.signal.detail).toMatch(
      /calls quote, which calls gross_price, which this change modified/,
    );
    expect(links[0]?.signal.cites).toContainEqual({
      kind: 'code',
      file: 'pricing/price.py',
      lines: { start: 13, end: 14 },
    });
    // Without the hop's callee changed, nothing links.
    const none = await callLinks(issue, { diff: [changed('pricing/price.py', [[9, 1, 9, 1]])], code });
    expect(none.links.map((l) => l.signal.detail)).not.toContainEqual(expect.stringMatching(/which calls/));
  });

  it('finds nothing without a diff, without located frames, or without parsable changed files', async () => {
    const issue = issueWith({
      candidates: [frame('tests/test_price.py', { line: 6, fn: ['test_rounds', 4, 6], role: 'test' })],
    });
    const none = { links: [], untouched: [] };
    expect(await callLinks(issue, { diff: [], code: priceCode() })).toEqual(none);
    expect(
      await callLinks(issueWith({}), {
        diff: [changed('pricing/price.py', [[5, 1, 5, 1]])],
        code: priceCode(),
      }),
    ).toEqual(none);
    expect(
      await callLinks(issue, { diff: [changed('pricing/price.csv', [[5, 1, 5, 1]])], code: priceCode() }),
    ).toEqual(none);
  });
});

describe('callNames and codeOf', () => {
  it.each([
    ['assert gross_price(Decimal("2.50")) == Decimal("2.68")', ['gross_price', 'Decimal']],
    ['Response r = controller.login(form("ada"));', ['login', 'form']],
    ['if (x) { return f(y); }', ['f']],
    ['    # gross_price(1) is a comment', []],
    ['value = compute(1)  # then call other(2)', ['compute']],
    [' * calls login(form) in javadoc', []],
    ['new Thing(1).run()', ['Thing', 'run']],
  ])('%s → %j', (line, names) => {
    expect(callNames(line)).toEqual(names);
  });

  it('keeps code and drops comments', () => {
    expect(codeOf('// all comment')).toBe('');
    expect(codeOf('x = 1 // trailing')).toBe('x = 1');
    expect(codeOf('url = "http://x"')).toBe('url = "http://x"');
  });
});
