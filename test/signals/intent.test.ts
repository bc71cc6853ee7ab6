import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../src/git/index.ts';
import type { VerifiedLocation } from '../../src/schemas/index.ts';
import { deliberateLines, intentLinks, messageNaming, targetsIn } from '../../src/signals/index.ts';
import { useParser } from '../locate/anchor/helpers.ts';
import { changed, codeFrom, issueWith } from './helpers.ts';

const parser = useParser();

const BASE = `package a;

class LoginController {
    Response login(Map<String, String> form) {
        String username = form.get("username");
        if (username == null) {
            return Response.badRequest("missing: username");
        }
        return Response.ok(username);
    }
}
`;

const REVISION = `package a;

/** The v1 parameter {@code username} is no longer accepted. */
class LoginController {
    Response login(Map<String, String> form) {
        String login = form.get("login");
        if (login == null) {
            return Response.badRequest("missing: login");
        }
        return Response.ok(login);
    }
}
`;

const TEST = `package a;

class LoginControllerTest {
    private static Map<String, String> form(String user) {
        return Map.of("username", user);
    }

    @Test
    void logsIn() {
        Response r = controller.login(form("ada"));
        assertEquals(200, r.status());
    }
}
`;

const CONTROLLER = 'src/main/java/a/LoginController.java';
const TEST_FILE = 'src/test/java/a/LoginControllerTest.java';
const MESSAGE = `Login API v2: rename the parameter \`username\` to \`login\`

This is an intentional API change: clients were migrated.

Change-Id: I5c1e7a3b9d2f4a6c8e0b2d4f6a8c0e2b4d6f8a13
`;

const DIFF: FileDiff[] = [
  changed(CONTROLLER, [
    [2, 0, 3, 1],
    [5, 5, 6, 5],
  ]),
];

function testFrame(): VerifiedLocation {
  return {
    level: 'function',
    file: TEST_FILE,
    function: { name: 'LoginControllerTest.logsIn', lines: { start: 8, end: 12 } },
    lines: null,
    reasons: [],
    diff_impact: { kind: 'untouched', changed_lines: [], related_functions: [] },
    candidate: null,
    alternatives: [],
    reported: {
      role: 'test',
      frame_index: 1,
      file: TEST_FILE,
      line: 11,
      function: 'LoginControllerTest.logsIn',
    },
  };
}

const issue = () =>
  issueWith({
    message: 'missing: login ==> expected: <200> but was: <400>',
    category: 'test_assertion',
    candidates: [testFrame()],
  });

function ctx(
  over: { message?: string; revision?: string; test?: string; diff?: FileDiff[]; base?: boolean } = {},
) {
  return {
    message: over.message ?? MESSAGE,
    diff: over.diff ?? DIFF,
    code: codeFrom({ [CONTROLLER]: over.revision ?? REVISION, [TEST_FILE]: over.test ?? TEST }, parser),
    baseCode:
      over.base === false ? null : codeFrom({ [CONTROLLER]: BASE, [TEST_FILE]: over.test ?? TEST }, parser),
  };
}

describe('intentLinks: a contract changed on purpose, and the test still uses the old one', () => {
  it('links the test helper that still sends the name the message says was dropped', async () => {
    const links = await intentLinks(issue(), ctx());
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ strength: 'strong', via: 'intent', file: TEST_FILE });
    expect(links[0]?.signal.detail).toBe(
      'the commit message states a deliberate change naming `username` ("Login API v2: rename the parameter `username` to `login`"); this change removed `username` from src/main/java/a/LoginController.java (lines 6-10), and the test helper LoginControllerTest.form still uses it at src/test/java/a/LoginControllerTest.java:5, a line the change did not update',
    );
    expect(links[0]?.signal.cites).toEqual([
      { kind: 'diff', file: CONTROLLER, lines: { start: 6, end: 10 } },
      { kind: 'code', file: TEST_FILE, lines: { start: 5, end: 5 } },
      { kind: 'signal', name: 'stale_use', detail: `${TEST_FILE}:4-6 (LoginControllerTest.form)` },
    ]);
    expect(targetsIn([links[0]?.signal as never], 'stale_use')[0]?.target.function).toBe(
      'LoginControllerTest.form',
    );
  });

  it('finds the old name in the test function itself too', async () => {
    const inline = TEST.replace(
      'controller.login(form("ada"))',
      'controller.login(Map.of("username", "ada"))',
    );
    const links = await intentLinks(issue(), ctx({ test: inline }));
    expect(links[0]?.signal.detail).toContain(
      'and the test itself still uses it at src/test/java/a/LoginControllerTest.java:10',
    );
  });

  it.each<[string, Parameters<typeof ctx>[0]]>([
    ['the message states no deliberate change', { message: 'Login: tidy up reading `username`\n' }],
    ['the message does not name the dropped name', { message: 'Login API v2: rename the parameter\n' }],
    [
      'the name is still in the code (a fallback)',
      { revision: REVISION.replace('form.get("login")', 'form.getOrDefault("login", form.get("username"))') },
    ],
    [
      'the change updated the test line',
      {
        diff: [...DIFF, changed(TEST_FILE, [[5, 1, 5, 1]])],
      },
    ],
    ['the base code is unknown', { base: false }],
    ['the test does not use the name', { test: TEST.replace('"username"', '"login"') }],
  ])('links nothing when %s', async (_, over) => {
    expect(await intentLinks(issue(), ctx(over))).toEqual([]);
  });

  it('does not take a refactoring described with "now … instead of" for a contract change', async () => {
    const base =
      'def gross_price(net, rate):\n    gross = net * (1 + rate)\n    return gross.quantize(CENT)\n';
    const revision =
      'def gross_price(net, rate):\n    cents = int(net * (1 + rate) * 100)\n    return cents\n';
    const test = 'def test_rounds():\n    assert gross_price(2.5, 0.07) == 2.68\n';
    const links = await intentLinks(
      issueWith({
        candidates: [
          {
            ...testFrame(),
            file: 'tests/test_price.py',
            function: { name: 'test_rounds', lines: { start: 1, end: 2 } },
          },
        ],
      }),
      {
        message:
          'Pricing: gross prices in cents\n\ngross_price() now works in integer cents instead of quantizing a Decimal.\n',
        diff: [changed('pricing/price.py', [[2, 2, 2, 2]])],
        code: codeFrom({ 'pricing/price.py': revision, 'tests/test_price.py': test }, parser),
        baseCode: codeFrom({ 'pricing/price.py': base, 'tests/test_price.py': test }, parser),
      },
    );
    expect(links).toEqual([]);
  });
});

describe('deliberate wording in a commit message', () => {
  it('reads the subject and body, not the trailers', () => {
    expect(deliberateLines(MESSAGE)).toEqual([
      'Login API v2: rename the parameter `username` to `login`',
      'This is an intentional API change: clients were migrated.',
    ]);
    expect(deliberateLines('Fix typo\n\nChange-Id: I1 now\n')).toEqual([]);
  });

  it.each([
    ['Pricing: prices are now rounded down', 'prices', 'Pricing: prices are now rounded down'],
    [
      'Deprecate `fetchAll`; use fetchPage instead',
      'fetchAll',
      'Deprecate `fetchAll`; use fetchPage instead',
    ],
    ['Breaking: drop the `v1` routes', 'v1', 'Breaking: drop the `v1` routes'],
    ['Add a cache for the `username` lookup', 'username', null],
    ['Rename the `user` field', 'username', null],
  ])('%s naming %s → %s', (message, name, line) => {
    expect(messageNaming(message, name)).toBe(line);
  });
});
