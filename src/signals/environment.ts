import type { EvidenceReader } from '../context/index.ts';
import type { Citation, Fact, Issue, Signal } from '../schemas/index.ts';
import { clip, evidenceCite, factCite, type NumberedLine, numbered, quoteOf, reasonLines } from './text.ts';

export const ENV_PROBLEMS = [
  'connection_refused',
  'dns',
  'network_timeout',
  'out_of_memory',
  'disk_full',
  'permission_denied',
  'missing_executable',
  'dependency_download',
] as const;
export type EnvProblem = (typeof ENV_PROBLEMS)[number];

const DESCRIBE: Record<EnvProblem, string> = {
  connection_refused: 'a connection was refused or reset',
  dns: 'a host name did not resolve',
  network_timeout: 'a network call to another host timed out',
  out_of_memory: 'the process ran out of memory',
  disk_full: 'the disk is full',
  permission_denied: 'the operating system denied access',
  missing_executable: 'an executable is missing',
  dependency_download: 'a dependency download failed',
};

interface Rule {
  problem: EnvProblem;
  /** Which tools print it: documentation, and what the tests cover. */
  from: string;
  pattern: RegExp;
  /** The same line saying this means it is not the environment. */
  unless?: RegExp;
}

/**
 * Wording of environment failures per toolchain. Each pattern names what only the environment
 * says: a bare "timeout" or "permission denied" is also what business code and test runners
 * say (a test's own time limit, an authorisation check), so those need their network or OS
 * context (`dial tcp`, `[Errno 13]`, `EACCES`, a path before the colon).
 */
const RULES: readonly Rule[] = [
  { problem: 'dns', from: 'Node', pattern: /\b(?:ENOTFOUND|EAI_AGAIN)\b/ },
  {
    problem: 'dns',
    from: 'glibc/musl/macOS resolvers (Python, curl, git, Postgres)',
    pattern:
      /Name or service not known|nodename nor servname provided|Temporary failure in name resolution|Name does not resolve|could not translate host name|Could not resolve host|getaddrinfo failed|socket\.gaierror/,
  },
  { problem: 'dns', from: 'Java', pattern: /\bUnknownHostException\b/ },
  { problem: 'dns', from: 'Go', pattern: /\blookup \S+(?: on \S+)?: no such host\b/ },
  {
    problem: 'dependency_download',
    from: 'Maven',
    pattern: /Could not transfer artifact|Could not resolve dependencies for project/,
    // A version that does not exist is the build file's mistake, not the network's.
    unless: /Could not find artifact|was not found in|Failure to find /,
  },
  {
    problem: 'dependency_download',
    from: 'Gradle',
    pattern: /Could not (?:GET|HEAD|download) '?https?:\/\//,
  },
  {
    problem: 'dependency_download',
    from: 'npm, pnpm, yarn',
    pattern:
      /npm (?:ERR!|error) (?:network|code (?:ECONNRESET|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|E5\d\d)\b)|request to https?:\/\/\S+ failed, reason:|ERR_PNPM_(?:META_FETCH_FAIL|FETCH_5\d\d)|There appears to be trouble with your network connection/,
  },
  {
    problem: 'dependency_download',
    from: 'pip (also what a pin to a version that does not exist prints: the manifest link decides)',
    pattern:
      /Could not find a version that satisfies the requirement|No matching distribution found for|Failed to establish a new connection|Retrying \(Retry\(total=/,
  },
  {
    problem: 'dependency_download',
    from: 'Go modules',
    pattern: /\bgo: .*(?:Get|reading) "?https?:\/\/\S+"?: /,
  },
  {
    problem: 'dependency_download',
    from: 'Docker',
    pattern:
      /toomanyrequests: You have reached your pull rate limit|Error response from daemon: Get "?https?:\/\//,
  },
  {
    problem: 'connection_refused',
    from: 'Java, Python, Go, curl, glibc',
    pattern: /connection refused|Connection to \S+ refused|Connection reset by peer|拒绝连接/i,
  },
  {
    problem: 'connection_refused',
    from: 'Node, Python',
    pattern:
      /\b(?:ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH)\b|\bConnection(?:Refused|Reset)Error\b|socket hang up/,
  },
  {
    problem: 'connection_refused',
    from: 'JDBC, libpq, curl, Redis clients',
    pattern:
      /Communications link failure|could not connect to server|Failed to connect to \S+ port \d+|No route to host|Network is unreachable|Unable to connect to Redis|连接[^\n]{0,20}失败/,
  },
  {
    problem: 'network_timeout',
    from: 'Java',
    pattern:
      /\bSocketTimeoutException\b|\b(?:Http)?ConnectTimeoutException\b|\bconnect timed out\b|\bRead timed out\b|\bHttpTimeoutException\b/,
  },
  {
    problem: 'network_timeout',
    from: 'Python',
    pattern:
      /\b(?:ConnectTimeout|ReadTimeout|ConnectTimeoutError|ReadTimeoutError)\b|\bsocket\.timeout\b|\[Errno 110\]|<urlopen error timed out>|\btimeout expired\b/,
  },
  {
    problem: 'network_timeout',
    from: 'Node',
    pattern:
      /\b(?:ETIMEDOUT|ESOCKETTIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT)\b|Connect Timeout Error/,
  },
  {
    problem: 'network_timeout',
    from: 'Go',
    pattern:
      /\bdial tcp \S*: i\/o timeout\b|\bi\/o timeout\b|Client\.Timeout exceeded|TLS handshake timeout|net\/http: request canceled while waiting for connection/,
  },
  {
    problem: 'network_timeout',
    from: 'generic (kernel, proxies, Chinese-locale logs)',
    pattern: /\bConnection timed out\b|Gateway Time-?out|\b504 Gateway\b|连接[^\n]{0,20}超时/i,
  },
  {
    problem: 'out_of_memory',
    from: 'Java, Python, Node, Go, C++',
    pattern:
      /\bOutOfMemoryError\b|(?:^|[\s:])MemoryError\b|JavaScript heap out of memory|\bENOMEM\b|Cannot allocate memory|runtime: out of memory|fatal error: out of memory|std::bad_alloc|GC overhead limit exceeded/,
  },
  {
    problem: 'out_of_memory',
    from: 'the kernel OOM killer, Docker, Kubernetes, shells',
    pattern:
      /^\s*Killed\s*$|\bOOMKilled\b|Out of memory: Killed process|\bsignal: killed\b|\bexit(?:ed)?(?: with)? (?:code|status)[ :=]*137\b|\breturn(?:ed)? (?:code )?137\b/im,
  },
  {
    problem: 'disk_full',
    from: 'POSIX, Windows, SQLite',
    pattern:
      /\bENOSPC\b|No space left on device|not enough space on the disk|Disk quota exceeded|\bEDQUOT\b|database or disk is full/i,
  },
  {
    problem: 'permission_denied',
    from: 'Node, Python, Java, Windows',
    pattern:
      /\b(?:EACCES|EPERM)\b|\bPermissionError\b|\[Errno 1[3]?\] (?:Permission denied|Operation not permitted)|\bjava\.nio\.file\.AccessDeniedException\b|\(Permission denied\)|\bAccess is denied\b/,
  },
  {
    problem: 'permission_denied',
    from: 'Go, shells, Docker',
    pattern:
      /\S*\/\S*: [Pp]ermission denied|: Operation not permitted|permission denied while trying to connect to the Docker daemon/,
  },
  {
    problem: 'missing_executable',
    from: 'shells, Windows cmd',
    pattern:
      /\b\S+: command not found|^(?:\/bin\/)?(?:ba)?sh: (?:\d+: )?\S+: not found|is not recognized as an internal or external command/m,
  },
  {
    problem: 'missing_executable',
    from: 'Node, Java, Go, Playwright',
    pattern:
      /\bspawn \S+ ENOENT\b|Cannot run program "[^"]+"|executable file not found in \$PATH|fork\/exec \S+: no such file or directory|Executable doesn't exist at /,
  },
];

/**
 * Python names a missing executable only as a missing file; it is an executable when the name
 * is a bare command (no folder, no extension) or the trace shows subprocess starting it.
 */
const PYTHON_MISSING_FILE = /No such file or directory: '([^']+)'/;
const SUBPROCESS = /subprocess\.py|_execute_child|Popen|os\.exec/;

/** What one detector found, and what triage needs to weigh it. */
export interface EnvironmentFinding {
  problem: EnvProblem;
  /**
   * `reason`: the failure's own message or exception lines say it. `context`: only a log, an
   * attachment, or an assertion's compared values say it — listed, but not enough for a verdict.
   */
  where: 'reason' | 'context';
  signal: Signal;
}

interface Source {
  where: EnvironmentFinding['where'];
  /** The fact that shows it (always cited), and the evidence it points at (quoted when read). */
  factIndex: number;
  evidence: string | null;
  lines: NumberedLine[];
}

interface Hit {
  problem: EnvProblem;
  source: Source;
  line: NumberedLine;
  match: { index: number; length: number };
  from: string;
}

/**
 * Environment signals of one failure: connection refused, DNS, timeouts to other hosts, OOM,
 * disk full, permission denied, missing executables, dependency downloads. One signal per
 * problem, citing the fact and a verbatim evidence line for each place it shows (at most 3).
 */
export async function environmentFindings(
  issue: Issue,
  evidence: Pick<EvidenceReader, 'readAll'>,
): Promise<EnvironmentFinding[]> {
  const sources = await sourcesOf(issue, evidence);
  const hits = sources.flatMap((source) => hitsIn(source, sources));
  return ENV_PROBLEMS.flatMap((problem) => {
    const mine = hits.filter((h) => h.problem === problem);
    if (mine.length === 0) return [];
    const where = mine.some((h) => h.source.where === 'reason') ? 'reason' : 'context';
    // The deciding places first: a reason line outranks a log line saying the same.
    const ordered = [
      ...mine.filter((h) => h.source.where === where),
      ...mine.filter((h) => h.source.where !== where),
    ];
    return [{ problem, where, signal: toSignal(issue, problem, where, ordered) }];
  });
}

export async function environmentSignals(
  issue: Issue,
  ctx: { evidence: Pick<EvidenceReader, 'readAll'> },
): Promise<Signal[]> {
  return (await environmentFindings(issue, ctx.evidence)).map((f) => f.signal);
}

/**
 * An assertion's message holds the values it compared: a test checking an error text ("expected
 * 'Connection refused' to be …") is not an environment failure. Its words count as context.
 */
export function isAssertionReason(line: string): boolean {
  return /^(?:E\s+)?(?:(?:[\w$]+\.)*Assertion\w*\b|assert\b|expected\b|Expected\b|(?:[\w$]+\.)*ComparisonFailure\b|Error: expect\()/.test(
    line.trim(),
  );
}

async function sourcesOf(issue: Issue, evidence: Pick<EvidenceReader, 'readAll'>): Promise<Source[]> {
  const firstError = issue.facts.find((f) => f.type === 'error')?.value ?? '';
  const assertion = isAssertionReason(firstError);
  const sources: Source[] = [];
  for (const [index, fact] of issue.facts.entries()) {
    const kind = sourceKind(fact);
    if (kind === null) continue;
    const text = fact.evidence === undefined ? null : await readOrNull(evidence, fact.evidence);
    const where = kind === 'reason' && !assertion ? 'reason' : 'context';
    const lines =
      text === null ? numbered(fact.value) : fact.type === 'trace' ? reasonLines(text) : numbered(text);
    sources.push({
      where,
      factIndex: index,
      evidence: text === null ? null : (fact.evidence ?? null),
      lines,
    });
  }
  return sources;
}

function sourceKind(fact: Fact): 'reason' | 'context' | null {
  if (fact.type === 'error' || fact.type === 'message' || fact.type === 'trace') return 'reason';
  // A failed step's message repeats or refines the failure; passed steps are not in the facts.
  if (fact.type === 'step') return /\[(failed|broken)\]/.test(fact.value) ? 'reason' : null;
  if (fact.type === 'log' || fact.type === 'attachment') return 'context';
  return null;
}

function hitsIn(source: Source, all: readonly Source[]): Hit[] {
  const hits: Hit[] = [];
  for (const line of source.lines) {
    for (const rule of RULES) {
      const m = rule.pattern.exec(line.text);
      if (m === null || rule.unless?.test(line.text)) continue;
      hits.push({
        problem: rule.problem,
        source,
        line,
        match: { index: m.index, length: m[0].length },
        from: rule.from,
      });
    }
    const missing = PYTHON_MISSING_FILE.exec(line.text);
    if (missing !== null && isExecutable(missing[1] as string, all)) {
      hits.push({
        problem: 'missing_executable',
        source,
        line,
        match: { index: missing.index, length: missing[0].length },
        from: 'Python subprocess',
      });
    }
  }
  return hits;
}

function isExecutable(name: string, sources: readonly Source[]): boolean {
  if (!/[/\\.]/.test(name)) return true;
  return sources.some((s) => s.lines.some((l) => SUBPROCESS.test(l.text)));
}

const MAX_PLACES = 3;

function toSignal(
  issue: Issue,
  problem: EnvProblem,
  where: EnvironmentFinding['where'],
  hits: readonly Hit[],
): Signal {
  const places = uniquePlaces(hits).slice(0, MAX_PLACES);
  const cites: Citation[] = [];
  for (const hit of places) {
    const fact = factCite(issue, hit.source.factIndex);
    if (!cites.some((c) => c.kind === 'fact' && c.index === hit.source.factIndex)) cites.push(fact);
    if (hit.source.evidence !== null)
      cites.push(evidenceCite(hit.source.evidence, hit.line, quoteOf(hit.line.text, hit.match)));
  }
  const first = places[0] as Hit;
  const scope =
    where === 'reason' ? '' : ' (only in a log, attachment or compared value: not the failure itself)';
  return {
    kind: 'environment',
    detail: `${DESCRIBE[problem]}${scope}: "${clip(first.line.text)}" [${problem}; ${first.from}]`,
    cites,
  };
}

/** One hit per line: several rules matching the same line cite it once. */
function uniquePlaces(hits: readonly Hit[]): Hit[] {
  const seen = new Set<string>();
  return hits.filter((h) => {
    const key = `${h.source.factIndex}:${h.line.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function readOrNull(evidence: Pick<EvidenceReader, 'readAll'>, id: string): Promise<string | null> {
  try {
    return await evidence.readAll(id);
  } catch {
    // Evidence the store lacks cannot be quoted; the fact's own value is still read.
    return null;
  }
}
