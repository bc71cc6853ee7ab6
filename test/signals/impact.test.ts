import { describe, expect, it } from 'vitest';
import {
  calleeOf,
  changedTestFiles,
  channelOf,
  channelSignals,
  contractLinks,
  diffLinks,
  impactSignals,
  isTestFile,
} from '../../src/signals/index.ts';
import { candidate, codeWith, issueWith, modified } from './helpers.ts';

describe('diff impact from the locator', () => {
  it('turns an in-hunk failure frame into a strong production link citing the diff and the code', () => {
    const issue = issueWith({
      message: 'AssertionError [ERR_ASSERTION]: ledger total',
      candidates: [
        candidate(
          'src/ledger.ts',
          21,
          {
            kind: 'in_hunk',
            changed_lines: [
              { start: 20, end: 22 },
              { start: 40, end: 41 },
              { start: 60, end: 60 },
            ],
          },
          'failure',
          'Ledger.verify',
        ),
      ],
    });

    const [link] = diffLinks(issue, [modified('src/ledger.ts', [[20, 3]])]);

    expect(link).toMatchObject({ strength: 'strong', via: 'production', file: 'src/ledger.ts' });
    expect(link?.signal).toEqual({
      kind: 'diff_impact',
      detail: 'the failure frame: src/ledger.ts:21 (Ledger.verify) is on a line this change modified',
      cites: [
        { kind: 'diff', file: 'src/ledger.ts', lines: { start: 20, end: 22 } },
        { kind: 'diff', file: 'src/ledger.ts', lines: { start: 40, end: 41 } },
        { kind: 'code', file: 'src/ledger.ts', lines: { start: 21, end: 21 } },
      ],
    });
  });

  it.each([
    ['in_function', {}, 'strong', 'is in a function this change modified'],
    [
      'in_file',
      { related_functions: ['bookedTotal'] as string[] },
      'strong',
      'calls or is called by bookedTotal',
    ],
    ['in_file', {}, 'weak', "this change modified src/ledger.ts, but not src/ledger.ts:21 (post)'s function"],
  ] as const)('%s %j is a %s link', (kind, extra, strength, detail) => {
    const issue = issueWith({
      candidates: [candidate('src/ledger.ts', 21, { kind, ...extra }, 'frame', 'post')],
    });

    const [link] = diffLinks(issue, [modified('src/ledger.ts', [[5, 1]])]);

    expect(link?.strength).toBe(strength);
    expect(link?.signal.detail).toContain(detail);
  });

  it('counts a build error anywhere in a changed file as strong', () => {
    const issue = issueWith({
      category: 'compilation_error',
      candidates: [candidate('src/cart.ts', 9, { kind: 'in_file' })],
    });

    expect(diffLinks(issue, [modified('src/cart.ts', [[30, 1]])])[0]?.strength).toBe('strong');
  });

  it('tells test code from production code', () => {
    const issue = issueWith({
      candidates: [
        candidate('test/cart.test.ts', 14, { kind: 'in_hunk' }, 'test'),
        candidate('src/test_helpers/money.py', 3, { kind: 'in_hunk' }, 'frame'),
        candidate(
          'billing/src/test/java/com/example/TaxCalculatorTest.java',
          30,
          { kind: 'in_function' },
          'frame',
        ),
      ],
    });

    expect(diffLinks(issue, []).map((l) => l.via)).toEqual(['test', 'production', 'test']);
  });

  it('ignores untouched and unknown frames, and lists a frame once', () => {
    const twice = candidate('src/a.ts', 3, { kind: 'in_hunk' });
    const issue = issueWith({
      candidates: [
        candidate('src/b.ts', 3, { kind: 'untouched' }),
        candidate('src/c.ts', 3, { kind: 'unknown' }),
        twice,
        twice,
      ],
    });

    expect(diffLinks(issue, []).map((l) => l.file)).toEqual(['src/a.ts']);
  });

  it('clamps a pure deletion at the top of a file to line 1', () => {
    const issue = issueWith({
      candidates: [
        candidate('src/a.ts', 3, { kind: 'in_function', changed_lines: [{ start: 0, end: 0 }] as never }),
      ],
    });

    expect(diffLinks(issue, [])[0]?.signal.cites[0]).toEqual({
      kind: 'diff',
      file: 'src/a.ts',
      lines: { start: 1, end: 1 },
    });
  });
});

describe("the test's own file", () => {
  it.each([
    ['vitest', 'shop-vitest:test/checkout.test.ts#Checkout places an order', 'test/checkout.test.ts'],
    ['pytest', 'tests.test_stock#test_import_csv_in_boxes', 'tests/test_stock.py'],
    [
      'JUnit',
      'com.example.billing.TaxCalculatorTest.germanVatRoundsHalfUpToTheCent',
      'billing/src/test/java/com/example/billing/TaxCalculatorTest.java',
    ],
  ])('finds the %s test file by name when the stack has no test frame', (_tool, fullName, file) => {
    const issue = issueWith({ full_name: fullName, key: 'history-id-1' });
    const diff = [modified(file, [[10, 2]]), modified('src/checkout.ts', [[3, 1]])];

    expect(changedTestFiles(issue, diff)).toEqual([file]);
    expect(diffLinks(issue, diff)).toMatchObject([{ strength: 'weak', via: 'test', file }]);
  });

  it('does not take a production file or another test file for it', () => {
    const issue = issueWith({ full_name: 'shop:test/checkout.test.ts#Checkout places an order' });

    expect(
      changedTestFiles(issue, [
        modified('src/checkout.ts', [[1, 1]]),
        modified('test/cart.test.ts', [[1, 1]]),
      ]),
    ).toEqual([]);
  });

  it.each([
    'test/a.test.ts',
    'src/cart.spec.js',
    'tests/test_stock.py',
    'ledger/ledger_test.go',
    'src/test/java/x/FooTest.java',
    'pkg/__tests__/a.js',
  ])('%s is a test file', (path) => expect(isTestFile(path)).toBe(true));

  it.each(['src/checkout.ts', 'inventory/stock.py', 'src/main/java/x/Foo.java', 'src/contest.ts'])(
    '%s is not',
    (path) => expect(isTestFile(path)).toBe(false),
  );
});

describe('dependency manifests', () => {
  it('links a dependency failure to a changed manifest', () => {
    const issue = issueWith({
      message: "ModuleNotFoundError: No module named 'redis_cluster'",
      category: 'dependency_resolution',
    });

    const links = diffLinks(issue, [modified('requirements.txt', [[4, 1]]), modified('src/a.py', [[1, 1]])]);

    expect(links).toMatchObject([{ strength: 'strong', via: 'manifest', file: 'requirements.txt' }]);
    expect(links[0]?.signal.cites).toEqual([
      { kind: 'diff', file: 'requirements.txt', lines: { start: 4, end: 4 } },
    ]);
  });

  it('links a test-channel failure to a manifest only when a download failed', () => {
    const issue = issueWith({ message: 'npm ERR! network request failed' });
    const diff = [modified('package.json', [[12, 1]])];

    expect(diffLinks(issue, diff)).toEqual([]);
    expect(diffLinks(issue, diff, { dependencyFailure: true })).toHaveLength(1);
  });
});

describe('call contracts', () => {
  it.each([
    ['Python', "TypeError: login() got an unexpected keyword argument 'username'", 'login'],
    [
      'Python 3.10+',
      "TypeError: AuthService.login() missing 1 required positional argument: 'email'",
      'login',
    ],
    ['Python', 'TypeError: login() takes 2 positional arguments but 3 were given', 'login'],
    [
      'Java',
      "java.lang.NoSuchMethodError: 'void com.example.auth.AuthService.login(java.lang.String)'",
      'login',
    ],
    ['javac', 'error: method login in class AuthService cannot be applied to given types;', 'login'],
    ['Go', 'not enough arguments in call to auth.Login', 'Login'],
    ['a value error', "ValueError: unknown unit of measure: 'dozen'", null],
  ])('%s: %s → %s', (_lang, reason, callee) => {
    expect(calleeOf(reason)).toBe(callee);
  });

  const code = codeWith({
    'auth/service.py': [
      {
        name: 'AuthService.login',
        qualified: 'AuthService.login',
        kind: 'method',
        lines: { start: 10, end: 30 },
      },
      {
        name: 'AuthService.logout',
        qualified: 'AuthService.logout',
        kind: 'method',
        lines: { start: 32, end: 40 },
      },
    ],
  });
  const issue = issueWith({ message: "TypeError: login() got an unexpected keyword argument 'username'" });

  it('links the failing call to a definition whose signature the change modified', async () => {
    const links = await contractLinks(issue, { diff: [modified('auth/service.py', [[11, 2]])], code });

    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ strength: 'strong', via: 'contract', file: 'auth/service.py' });
    expect(links[0]?.signal.detail).toBe(
      'the failing call no longer fits AuthService.login (auth/service.py:10), whose signature this change modified',
    );
    expect(links[0]?.signal.cites).toEqual([
      { kind: 'diff', file: 'auth/service.py', lines: { start: 11, end: 12 } },
      { kind: 'code', file: 'auth/service.py', lines: { start: 10, end: 15 } },
    ]);
  });

  it('does not link a change to the body only, or to another function', async () => {
    expect(await contractLinks(issue, { diff: [modified('auth/service.py', [[25, 2]])], code })).toEqual([]);
    expect(await contractLinks(issue, { diff: [modified('auth/service.py', [[33, 1]])], code })).toEqual([]);
  });

  describe('a definition the change removed or renamed (read in the code at the base)', () => {
    const jsIssue = issueWith({ message: 'TypeError: auth.login is not a function' });
    const before = codeWith({
      'src/auth.ts': [
        {
          name: 'AuthService.login',
          qualified: 'AuthService.login',
          kind: 'method',
          lines: { start: 4, end: 9 },
        },
      ],
    });
    const after = codeWith({
      'src/auth.ts': [
        {
          name: 'AuthService.signIn',
          qualified: 'AuthService.signIn',
          kind: 'method',
          lines: { start: 4, end: 9 },
        },
      ],
    });
    const renamed = {
      oldPath: 'src/auth.ts',
      newPath: 'src/auth.ts',
      status: 'modified' as const,
      hunks: [{ oldStart: 4, oldLines: 1, newStart: 4, newLines: 1 }],
    };

    it.each([
      ['JavaScript', 'TypeError: auth.login is not a function', 'login'],
      ['Python', "AttributeError: 'AuthService' object has no attribute 'login'", 'login'],
    ])('%s: %s → %s', (_lang, reason, callee) => expect(calleeOf(reason)).toBe(callee));

    it('links the failing call to the renamed definition', async () => {
      const links = await contractLinks(jsIssue, { diff: [renamed], code: after, baseCode: before });

      expect(links.map((l) => [l.via, l.strength, l.signal.detail])).toEqual([
        [
          'contract',
          'strong',
          'the failing call names AuthService.login, which this change removed or renamed in src/auth.ts (base line 4)',
        ],
      ]);
      expect(links[0]?.signal.cites).toEqual([
        { kind: 'diff', file: 'src/auth.ts', lines: { start: 4, end: 4 } },
      ]);
    });

    it('says nothing without the base, or when the definition was not touched', async () => {
      expect(await contractLinks(jsIssue, { diff: [renamed], code: after, baseCode: null })).toEqual([]);
      const elsewhere = { ...renamed, hunks: [{ oldStart: 20, oldLines: 2, newStart: 20, newLines: 2 }] };
      expect(await contractLinks(jsIssue, { diff: [elsewhere], code: before, baseCode: before })).toEqual([]);
    });
  });

  it('is part of the impact signals', async () => {
    const signals = await impactSignals(issue, { diff: [modified('auth/service.py', [[10, 1]])], code });

    expect(signals.map((s) => s.kind)).toEqual(['diff_impact']);
  });
});

describe('build channel', () => {
  it.each([
    ['compilation_error', 'build'],
    ['dependency_resolution', 'build'],
    ['test_assertion', 'test'],
    ['test_error', 'test'],
    ['test_timeout', 'test'],
    ['unknown', 'test'],
  ] as const)('%s takes the %s channel', (category, channel) => {
    expect(channelOf({ category })).toBe(channel);
  });

  it('cites the error and trace facts the category was read from', () => {
    const issue = issueWith({
      message: "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?",
      trace: "E   SyntaxError: Missing parentheses in call to 'print'",
      category: 'compilation_error',
    });

    expect(channelSignals(issue)).toEqual([
      {
        kind: 'build_channel',
        detail:
          'the report shows code that does not compile (compilation_error): "SyntaxError: Missing parentheses in call to \'print\'. Did you mean print(...)?"',
        cites: [
          { kind: 'fact', issue_id: '001', index: 1 },
          { kind: 'fact', issue_id: '001', index: 2 },
        ],
      },
    ]);
    expect(channelSignals(issueWith({ message: 'x' }))).toEqual([]);
  });
});
