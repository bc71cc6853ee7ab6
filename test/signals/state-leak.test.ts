import { describe, expect, it } from 'vitest';
import type { VerifiedLocation } from '../../src/schemas/index.ts';
import {
  conftestsOf,
  isUniquenessError,
  parametersOf,
  stateLeakFindings,
  targetsIn,
} from '../../src/signals/index.ts';
import { useParser } from '../locate/anchor/helpers.ts';
import { codeFrom, issueWith } from './helpers.ts';

const parser = useParser();

const CONFTEST = `from pathlib import Path

import pytest

from accounts.store import UserStore

TEST_DB = Path("build/test-users.json")


@pytest.fixture
def store() -> UserStore:
    TEST_DB.parent.mkdir(exist_ok=True)
    return UserStore(TEST_DB)


@pytest.fixture
def clock():
    return 0
`;

const TEST = `from accounts.store import DuplicateUserError


def test_signup(clock, store):
    store.register("ada@example.com", "Ada")
    assert store.get("ada@example.com") == {"name": "Ada"}


def test_twice(store):
    store.register("bob@example.com", "Bob")
    store.register("bob@example.com", "Bob again")
`;

function testFrame(line: number, fn: [string, number, number]): VerifiedLocation {
  return {
    level: 'line',
    file: 'tests/test_signup.py',
    function: { name: fn[0], lines: { start: fn[1], end: fn[2] } },
    lines: { start: line, end: line },
    reasons: [],
    diff_impact: { kind: 'untouched', changed_lines: [], related_functions: [] },
    candidate: null,
    alternatives: [],
    reported: { role: 'test', frame_index: 0, file: 'tests/test_signup.py', line, function: fn[0] },
  };
}

const code = (files: Record<string, string> = {}) =>
  codeFrom({ 'tests/conftest.py': CONFTEST, 'tests/test_signup.py': TEST, ...files }, parser);

const duplicate = (email: string, candidates: VerifiedLocation[]) =>
  issueWith({
    message: `accounts.store.DuplicateUserError: '${email}' is already registered`,
    candidates,
  });

describe('stateLeakFindings: data left by an earlier test or run', () => {
  it('is a flaky finding pointing at the fixture the failing line uses, in a conftest.py', async () => {
    const issue = duplicate('ada@example.com', [testFrame(5, ['test_signup', 4, 6])]);
    const [finding, ...rest] = await stateLeakFindings(issue, { code: code() }, true);
    expect(rest).toEqual([]);
    expect(finding?.basis).toBe('state_leak');
    expect(finding?.signal.kind).toBe('flaky');
    expect(finding?.signal.detail).toBe(
      `a uniqueness error ("accounts.store.DuplicateUserError: 'ada@example.com' is already registered") on a path this change does not touch: the record the test creates at tests/test_signup.py:5 already existed, most likely left by an earlier test or run (test data not isolated between runs); the test's data comes from the fixture store (tests/conftest.py:10-13)`,
    );
    expect(finding?.signal.cites).toEqual([
      { kind: 'fact', issue_id: '001', index: 1 },
      { kind: 'code', file: 'tests/test_signup.py', lines: { start: 5, end: 5 } },
      { kind: 'code', file: 'tests/conftest.py', lines: { start: 10, end: 13 } },
      { kind: 'signal', name: 'fixture', detail: 'tests/conftest.py:10-13 (store)' },
    ]);
    expect(targetsIn([finding?.signal as never], 'fixture')[0]?.target.function).toBe('store');
  });

  it('says nothing when the change touches the path', async () => {
    const issue = duplicate('ada@example.com', [testFrame(5, ['test_signup', 4, 6])]);
    expect(await stateLeakFindings(issue, { code: code() }, false)).toEqual([]);
  });

  it('says nothing when the test itself created the value before the failing line', async () => {
    const issue = duplicate('bob@example.com', [testFrame(11, ['test_twice', 9, 11])]);
    expect(await stateLeakFindings(issue, { code: code() }, true)).toEqual([]);
  });

  it.each([
    "AssertionError: assert None == {'name': 'Ada'}",
    'OSError: [Errno 98] Address already in use',
    'listen tcp :8080: bind: address already in use',
  ])('says nothing for a failure that is no uniqueness error: %s', async (message) => {
    const issue = issueWith({ message, candidates: [testFrame(5, ['test_signup', 4, 6])] });
    expect(await stateLeakFindings(issue, { code: code() }, true)).toEqual([]);
  });

  it('falls back to the test function when no fixture is found', async () => {
    const issue = duplicate('ada@example.com', [testFrame(5, ['test_signup', 4, 6])]);
    const [finding] = await stateLeakFindings(
      issue,
      { code: code({ 'tests/conftest.py': 'X = 1\n' }) },
      true,
    );
    expect(targetsIn([finding?.signal as never], 'fixture')[0]?.target).toEqual({
      file: 'tests/test_signup.py',
      function: 'test_signup',
      lines: { start: 4, end: 6 },
    });
  });

  it("points at a JUnit test class's @BeforeEach method", async () => {
    const java = `package a;

class StoreTest {
    private Store store;

    @BeforeEach
    void setUp() {
        store = new Store(Path.of("build/users.db"));
    }

    @Test
    void registers() {
        store.register("ada@example.com");
    }
}
`;
    const file = 'src/test/java/a/StoreTest.java';
    const frame: VerifiedLocation = {
      ...testFrame(13, ['StoreTest.registers', 11, 14]),
      file,
      reported: { role: 'test', frame_index: 1, file, line: 13, function: 'StoreTest.registers' },
    };
    const issue = issueWith({
      message:
        'org.h2.jdbc.JdbcSQLIntegrityConstraintViolationException: Unique index or primary key violation',
      candidates: [frame],
    });
    const [finding] = await stateLeakFindings(issue, { code: code({ [file]: java }) }, true);
    expect(targetsIn([finding?.signal as never], 'fixture')[0]?.target).toEqual({
      file,
      function: 'StoreTest.setUp',
      lines: { start: 6, end: 9 },
    });
    expect(finding?.signal.detail).toContain('a record the test expects to be new already existed');
  });
});

describe('the pieces', () => {
  it.each([
    ["DuplicateUserError: 'ada@example.com' is already registered", true],
    ['sqlite3.IntegrityError: UNIQUE constraint failed: users.email', true],
    ['ERROR: duplicate key value violates unique constraint "users_email_key"', true],
    ['FileExistsError: [Errno 17] File exists: build/out', true],
    ['io.grpc.StatusRuntimeException: ALREADY_EXISTS: user ada', true],
    ['AlreadyExistsException: topic orders', true],
    ['EADDRINUSE: address already in use :::3000', false],
    ['expected 2 to be 3', false],
  ])('%s → %s', (reason, yes) => {
    expect(isUniquenessError(reason)).toBe(yes);
  });

  it('reads pytest parameters', () => {
    expect(
      parametersOf(['@pytest.mark.slow', 'def test_x(self, store: UserStore, clock=None, *args, **kw):']),
    ).toEqual(['store', 'clock']);
    expect(parametersOf(['async def test_y(', '    db,', '    tmp_path,', '):'])).toEqual(['db', 'tmp_path']);
    expect(parametersOf(['x = 1'])).toEqual([]);
  });

  it('lists the conftest.py files a test sees, nearest first', () => {
    expect(conftestsOf('tests/api/test_x.py')).toEqual([
      'tests/api/conftest.py',
      'tests/conftest.py',
      'conftest.py',
    ]);
    expect(conftestsOf('test_x.py')).toEqual(['conftest.py']);
  });
});
