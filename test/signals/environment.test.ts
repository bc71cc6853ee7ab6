import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Fact } from '../../src/schemas/index.ts';
import {
  type EnvProblem,
  environmentFindings,
  environmentSignals,
  reasonLines,
} from '../../src/signals/index.ts';
import { issueWith, MemoryEvidence } from './helpers.ts';

const TRACES = 'test/fixtures/traces';

async function problemsOf(parts: Parameters<typeof issueWith>[0]): Promise<Array<[EnvProblem, string]>> {
  const evidence = new MemoryEvidence();
  const found = await environmentFindings(issueWith(parts, evidence), evidence);
  return found.map((f) => [f.problem, f.where]);
}

describe('environment signals: what the failure itself says', () => {
  it.each<[string, EnvProblem, string]>([
    // connection refused / reset
    ['Java', 'connection_refused', 'java.net.ConnectException: Connection refused (Connection refused)'],
    ['Python', 'connection_refused', 'ConnectionRefusedError: [Errno 111] Connection refused'],
    ['Node', 'connection_refused', 'Error: connect ECONNREFUSED 127.0.0.1:5432'],
    ['Go', 'connection_refused', 'dial tcp 127.0.0.1:6379: connect: connection refused'],
    [
      'JDBC',
      'connection_refused',
      'org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct',
    ],
    [
      'MySQL',
      'connection_refused',
      'com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure',
    ],
    ['Node reset', 'connection_refused', 'Error: socket hang up'],
    ['Python reset', 'connection_refused', 'ConnectionResetError: [Errno 104] Connection reset by peer'],
    // DNS
    ['Node', 'dns', 'Error: getaddrinfo ENOTFOUND payments.internal'],
    [
      'Python',
      'dns',
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='payments.internal', port=443): Max retries exceeded (Caused by NameResolutionError(\"Failed to resolve 'payments.internal' ([Errno -2] Name or service not known)\"))",
    ],
    ['Java', 'dns', 'java.net.UnknownHostException: payments.internal: Temporary failure in name resolution'],
    [
      'Go',
      'dns',
      'Get "https://payments.internal/v1": dial tcp: lookup payments.internal on 127.0.0.11:53: no such host',
    ],
    // network timeouts
    ['Java', 'network_timeout', 'java.net.SocketTimeoutException: Read timed out'],
    [
      'Java HTTP client',
      'network_timeout',
      'java.net.http.HttpConnectTimeoutException: HTTP connect timed out',
    ],
    [
      'Python',
      'network_timeout',
      "requests.exceptions.ConnectTimeout: HTTPConnectionPool(host='10.0.0.5', port=80): Max retries exceeded with url: /rates",
    ],
    ['Python socket', 'network_timeout', 'TimeoutError: [Errno 110] Connection timed out'],
    ['Node', 'network_timeout', 'Error: connect ETIMEDOUT 10.0.0.5:443'],
    ['Go', 'network_timeout', 'Get "http://rates:8080/eur": dial tcp 10.0.0.5:8080: i/o timeout'],
    [
      'Go client',
      'network_timeout',
      'Get "http://rates/eur": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
    ],
    // memory
    ['Java', 'out_of_memory', 'java.lang.OutOfMemoryError: Java heap space'],
    ['Python', 'out_of_memory', 'MemoryError'],
    [
      'Node',
      'out_of_memory',
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    ],
    ['Go', 'out_of_memory', 'fatal error: runtime: out of memory'],
    ['exit 137', 'out_of_memory', 'Process finished with exit code 137'],
    // disk
    ['Node', 'disk_full', 'Error: ENOSPC: no space left on device, write'],
    ['Java', 'disk_full', 'java.io.IOException: No space left on device'],
    ['SQLite', 'disk_full', 'sqlite3.OperationalError: database or disk is full'],
    // permissions
    ['Node', 'permission_denied', "Error: EACCES: permission denied, open '/var/lib/app/config.json'"],
    ['Python', 'permission_denied', "PermissionError: [Errno 13] Permission denied: '/var/lib/app/out.csv'"],
    ['Java', 'permission_denied', 'java.nio.file.AccessDeniedException: /var/lib/app/ledger.lock'],
    ['Go', 'permission_denied', 'open /var/lib/app/ledger.db: permission denied'],
    // missing executables
    ['bash', 'missing_executable', 'bash: docker: command not found'],
    ['Node', 'missing_executable', 'Error: spawn chromium ENOENT'],
    [
      'Java',
      'missing_executable',
      'java.io.IOException: Cannot run program "pg_dump": error=2, No such file or directory',
    ],
    ['Go', 'missing_executable', 'exec: "protoc": executable file not found in $PATH'],
    ['Python', 'missing_executable', "FileNotFoundError: [Errno 2] No such file or directory: 'docker'"],
    [
      'Playwright',
      'missing_executable',
      "browserType.launch: Executable doesn't exist at /root/.cache/ms-playwright/chromium-1091/chrome-linux/chrome",
    ],
    // dependency downloads
    [
      'Maven',
      'dependency_download',
      '[ERROR] Failed to execute goal on project billing: Could not resolve dependencies for project com.example:billing:jar:1.0: Could not transfer artifact org.slf4j:slf4j-api:jar:2.0.9 from/to central (https://repo.maven.apache.org/maven2): Connect timed out',
    ],
    [
      'Gradle',
      'dependency_download',
      "> Could not GET 'https://repo.maven.apache.org/maven2/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.pom'.",
    ],
    [
      'npm',
      'dependency_download',
      'npm ERR! network request to https://registry.npmjs.org/vitest failed, reason: read ECONNRESET',
    ],
    [
      'pip',
      'dependency_download',
      'ERROR: Could not find a version that satisfies the requirement redis-cluster==2.1.0 (from versions: none)',
    ],
    [
      'go',
      'dependency_download',
      'go: example.com/money@v1.4.0: Get "https://proxy.golang.org/example.com/money/@v/v1.4.0.mod": dial tcp: lookup proxy.golang.org: no such host',
    ],
  ])('%s: %s', async (_tool, problem, message) => {
    const found = await problemsOf({ message });

    expect(found).toContainEqual([problem, 'reason']);
  });

  it('reads a Java cause chain from the trace, not from the frames', async () => {
    const trace = [
      'org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection',
      '\tat org.springframework.orm.jpa.vendor.HibernateJpaDialect.convert(HibernateJpaDialect.java:277)',
      'Caused by: java.net.ConnectException: Connection refused',
      '\tat java.base/sun.nio.ch.Net.pollConnect(Native Method)',
      '\t... 42 more',
    ].join('\n');

    const found = await problemsOf({ message: 'Unable to acquire JDBC Connection', trace });

    expect(found).toEqual([['connection_refused', 'reason']]);
  });
});

describe('environment signals: false positives', () => {
  it.each([
    ['a vitest test time limit', 'Test timed out in 500ms.'],
    [
      'a JUnit assertTimeout',
      'org.opentest4j.AssertionFailedError: execution exceeded timeout of 100 ms by 12 ms',
    ],
    ['a Playwright wait', 'TimeoutError: page.waitForSelector: Timeout 30000ms exceeded.'],
    ['an asyncio timeout', 'asyncio.exceptions.TimeoutError'],
    ['an authorisation check', 'PermissionDeniedError: user 42 may not cancel order ORD-1001'],
    ['a Django permission', 'django.core.exceptions.PermissionDenied'],
    ['a missing data file', "FileNotFoundError: [Errno 2] No such file or directory: 'fixtures/orders.csv'"],
    ['a missing file in Node', "Error: ENOENT: no such file or directory, open 'test/data/rates.json'"],
    [
      'a Maven artifact that does not exist',
      '[ERROR] Failed to execute goal on project billing: Could not resolve dependencies for project com.example:billing:jar:1.0: Could not find artifact com.example:money:jar:9.9 in central (https://repo.maven.apache.org/maven2)',
    ],
    ['an npm package that does not exist', 'npm ERR! code E404'],
    ['a business error', "ValueError: unknown unit of measure: 'dozen' (known: pcs, box, pallet)"],
    ['a killed word in prose', 'IllegalStateException: order was killed by the customer before shipping'],
  ])('%s', async (_what, message) => {
    expect(await problemsOf({ message })).toEqual([]);
  });

  it.each([
    ['vitest', "AssertionError: expected 'Connection refused' to be 'ok' // Object.is equality"],
    ['pytest', "AssertionError: assert 'connect ETIMEDOUT 10.0.0.5:443' == ''"],
    ['JUnit', 'org.opentest4j.AssertionFailedError: expected: <200> but was: <503 Connection refused>'],
    ['chai', "expected 'ENOSPC: no space left on device' to equal 'saved'"],
  ])('a %s assertion comparing an error text is context, not the reason', async (_tool, message) => {
    const found = await problemsOf({ message, category: 'test_assertion' });

    expect(found.length).toBeGreaterThan(0);
    expect(found.every(([, where]) => where === 'context')).toBe(true);
  });

  it('ignores the source lines a pytest traceback quotes (the real fixture builds a log string in the test)', async () => {
    // The real trace of tests.test_stock#test_fetch_open_orders_from_order_db quotes the test's own
    // source, including "连接数据库失败: 超时" (connect failed: timeout) inside a string literal.
    const trace = [
      '    def test_fetch_open_orders_from_order_db():',
      '        service_log = (',
      '            "2024-05-14 09:12:04 [订单服务] 连接数据库失败: 超时 (订单服务)\\n"',
      '        )',
      '        with pytest.raises(TimeoutError):',
      '>           orders = fetch_open_orders("127.0.0.1", _closed_port())',
      'E           ValueError: port must be positive',
      '',
      'tests/test_stock.py:47: ValueError',
    ].join('\n');

    expect(await problemsOf({ message: 'ValueError: port must be positive', trace })).toEqual([]);
  });

  it('keeps log-only findings as context', async () => {
    const evidence = new MemoryEvidence();
    const log = 'INFO starting\nWARN db: connection refused, retrying in 1s\nINFO db: connected\n';
    const facts: Fact[] = [
      { type: 'log', name: 'service.log', value: log.slice(0, 20), evidence: evidence.put(log) },
    ];
    const issue = issueWith(
      { message: "expected 'declined' to be 'captured'", category: 'test_assertion', facts },
      evidence,
    );

    const found = await environmentFindings(issue, evidence);

    expect(found.map((f) => [f.problem, f.where])).toEqual([['connection_refused', 'context']]);
    expect(found[0]?.signal.detail).toContain('only in a log');
  });
});

describe('environment citations', () => {
  it('cites the fact and quotes the evidence line verbatim', async () => {
    const evidence = new MemoryEvidence();
    const trace = readFileSync(`${TRACES}/python-valueerror.txt`, 'utf8').replace(
      "E           ValueError: unknown unit of measure: 'dozen' (known: pcs, box, pallet)",
      'E           ConnectionRefusedError: [Errno 111] Connection refused',
    );
    const issue = issueWith(
      { message: 'ConnectionRefusedError: [Errno 111] Connection refused', trace },
      evidence,
    );

    const [signal] = await environmentSignals(issue, { evidence });

    expect(signal?.kind).toBe('environment');
    expect(signal?.cites).toContainEqual({ kind: 'fact', issue_id: '001', index: 1 });
    const quoted = signal?.cites.find((c) => c.kind === 'evidence');
    expect(quoted?.kind).toBe('evidence');
    if (quoted?.kind !== 'evidence' || quoted.lines === undefined || quoted.quote === undefined) return;
    const line = (await evidence.readAll(quoted.id)).split('\n')[quoted.lines.start - 1];
    expect(line).toBe(quoted.quote);
    expect(quoted.quote).toContain('Connection refused');
  });

  it('quotes a window of a very long line, still verbatim', async () => {
    const evidence = new MemoryEvidence();
    const long = `${'x'.repeat(2000)} ECONNREFUSED 10.0.0.5:5432 ${'y'.repeat(2000)}`;
    const facts: Fact[] = [{ type: 'log', name: 'app.log', value: 'x', evidence: evidence.put(long) }];
    const issue = issueWith(
      { message: 'Test timed out in 5000ms.', category: 'test_timeout', facts },
      evidence,
    );

    const [signal] = await environmentSignals(issue, { evidence });
    const quoted = signal?.cites.find((c) => c.kind === 'evidence');

    expect(quoted?.kind === 'evidence' && quoted.quote).toBeTruthy();
    if (quoted?.kind !== 'evidence' || quoted.quote === undefined) return;
    expect(quoted.quote.length).toBeLessThanOrEqual(300);
    expect(long).toContain(quoted.quote);
    expect(quoted.quote).toContain('ECONNREFUSED');
  });

  it('still reads the fact value when its evidence is missing from the store', async () => {
    const issue = issueWith({ message: 'short' });
    issue.facts.push({
      type: 'log',
      name: 'gone.log',
      value: 'fatal: No space left on device',
      evidence: `ev_${'0'.repeat(24)}`,
    });

    const [signal] = await environmentSignals(issue, { evidence: new MemoryEvidence() });

    expect(signal?.detail).toContain('disk is full');
    expect(signal?.cites).toEqual([{ kind: 'fact', issue_id: '001', index: 2 }]);
  });
});

describe('reasonLines on the real fixture traces', () => {
  const lines = (file: string) =>
    reasonLines(readFileSync(`${TRACES}/${file}`, 'utf8')).map((l) => l.text.trim());

  it('keeps only the E lines of a pytest long traceback', () => {
    expect(lines('python-valueerror.txt')).toEqual([
      "E           ValueError: unknown unit of measure: 'dozen' (known: pcs, box, pallet)",
    ]);
  });

  it('keeps the exception line of a native CPython traceback, not its quoted source', () => {
    const got = lines('python-valueerror-native.txt');
    expect(got.at(-1)).toMatch(/^ValueError: unknown unit of measure/);
    expect(got.some((l) => l.startsWith('File '))).toBe(false);
    expect(got.some((l) => l.includes('raise ValueError'))).toBe(false);
  });

  it('keeps the header and the cause of a Java trace', () => {
    expect(lines('java-exception.txt')).toEqual([
      expect.stringMatching(/^java\.lang\.IllegalStateException: Cannot convert invoice/),
      expect.stringMatching(/^Caused by: java\.lang\.ArithmeticException: Division by zero/),
    ]);
  });

  it('keeps the message lines of a Node trace and drops its frames', () => {
    expect(lines('node-vitest-assert.txt')).toEqual([
      'AssertionError [ERR_ASSERTION]: ledger total for order ORD-1001 does not match cart total',
      '6187 !== 6074',
    ]);
  });

  it('keeps the panic lines of a Go trace and drops goroutine frames', () => {
    expect(lines('go-panic.txt')).toEqual([
      expect.stringMatching(/^panic: runtime error: invalid memory address/),
      expect.stringMatching(/^\[signal SIGSEGV/),
    ]);
  });

  it('finds no environment problem in any of the real fixture traces', async () => {
    for (const file of [
      'java-assertion.txt',
      'java-exception.txt',
      'python-assertion.txt',
      'python-valueerror.txt',
      'python-valueerror-native.txt',
      'python-modulenotfound.txt',
      'python-syntaxerror.txt',
      'node-vitest.txt',
      'node-vitest-assert.txt',
      'go-panic.txt',
      'go-testing.txt',
      'browser-chromium.txt',
    ]) {
      const trace = readFileSync(`${TRACES}/${file}`, 'utf8');
      expect([file, await problemsOf({ message: trace.split('\n')[0] ?? '', trace })]).toEqual([file, []]);
    }
  });
});
