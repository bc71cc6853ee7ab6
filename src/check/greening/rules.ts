/**
 * Advice that only turns CI green (shared/DESIGN.md): the wording and the code that give it
 * away, in the languages and test frameworks we read (JS/TS: jest, vitest, mocha, playwright;
 * Python: pytest, unittest; Java: JUnit 4/5, TestNG, Mockito; Go: testing, testify).
 *
 * Two forms. `prose` rules read sentences an engineer would write ("skip this test", "delete
 * the assertion") and are matched only in advice text. `code` rules read markers (`it.skip(`,
 * `@Disabled`, `except: pass`, `--reruns`) wherever they appear: in advice, in verify commands
 * and in the lines a fix adds. Each pattern wants a verb and its object together, so that the
 * same words in a legitimate fix ("update the assertion's expected value to the new contract",
 * "restore the retry the change removed from the HTTP client") do not match.
 */

export type GreeningKind = 'skip' | 'assertion' | 'swallow' | 'retry' | 'timeout';

export interface GreeningRule {
  kind: GreeningKind;
  /** What the advice does, for the finding message. */
  what: string;
  form: 'prose' | 'code';
  /** `advice`: change and fix text only; `all`: verify commands too. */
  scope: 'advice' | 'all';
  pattern: RegExp;
  /** The match does not count when the rest of its sentence says this (the removed assertion is replaced). */
  unlessAfter?: RegExp;
}

/** Up to `n` words between a verb and its object: "skip [the failing checkout] test". */
const gap = (n: number) => `(?:\\s+\\S+){0,${n}}?\\s+`;

const TEST_NOUN =
  '(?:tests?|specs?|test\\s?cases?|testcases?|(?:test\\s+)?suites?|test_\\w+|\\w+_test|test\\w*\\(\\))\\b(?!\\s*(?:data|helpers?|fixtures?|utils?|doubles?|ids?|setup)\\b)';
const ASSERTION_NOUN = '(?:assert\\w*|expect(?:ations?|s)?\\b|expect\\(|verif(?:y|ications?)\\b)';
const DURATION = '\\d+(?:\\.\\d+)?\\s*(?:ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\\b';

function prose(
  kind: GreeningKind,
  what: string,
  source: string,
  extra: Partial<GreeningRule> = {},
): GreeningRule {
  return { kind, what, form: 'prose', scope: 'advice', pattern: new RegExp(source, 'i'), ...extra };
}

function code(kind: GreeningKind, what: string, pattern: RegExp): GreeningRule {
  return { kind, what, form: 'code', scope: 'all', pattern };
}

export const GREENING_RULES: readonly GreeningRule[] = [
  // Skipping or disabling tests.
  prose(
    'skip',
    'skips or disables a test',
    `\\b(?:skip|skipping|disable|disabling|deactivate|deactivating|mute|muting|quarantine|quarantining|ignore|ignoring|exclude|excluding|turn\\s+off|switch\\s+off)${gap(3)}${TEST_NOUN}`,
    { scope: 'all' },
  ),
  prose(
    'skip',
    'marks a test as skipped, expected to fail or flaky',
    `\\bmark(?:\\s+\\S+){0,4}?\\s+as\\s+(?:an?\\s+)?(?:skipped|ignored|disabled|xfail|pending|todo|flaky|expected\\s+(?:to\\s+fail|failures?)|known\\s+(?:failures?|issues?))\\b`,
  ),
  prose(
    'skip',
    'skips or disables a test',
    `\\b(?:tests?|specs?|suites?|test_\\w+)\\b(?:\\s+\\S+){0,4}?\\s+(?:be|is|are|get|gets)\\s+(?:temporarily\\s+)?(?:skipped|disabled|ignored|muted|quarantined|excluded|deactivated)\\b`,
  ),
  prose(
    'skip',
    'comments out a test or an assertion',
    `\\bcomment(?:ing|ed)?[\\s-]+out${gap(3)}(?:${TEST_NOUN}|${ASSERTION_NOUN}|checks?\\b|lines?\\b|calls?\\b|failing\\b)|\\bcomment(?:ing)?\\s+(?:it|them|this|that)\\s+out\\b`,
  ),
  code(
    'skip',
    'skips a test (it.skip / xit / describe.skip / .only)',
    /\b(?:it|test|describe|context|suite)\.(?:skip|todo|only)\b|\bx(?:it|test|describe|context)\s*\(/,
  ),
  code(
    'skip',
    'skips a test (pytest / unittest)',
    /\bpytest\.mark\.(?:skip|skipif|xfail)\b|\bpytest\.(?:skip|xfail)\s*\(|@unittest\.(?:skip\w*|expectedFailure)\b|\bunittest\.SkipTest\b|\braise\s+SkipTest\b|\bxfail\b/,
  ),
  code(
    'skip',
    'disables a test (@Ignore / @Disabled / assumptions)',
    /@(?:Ignore|Disabled\w*)\b|\bAssume\.assume\w*\s*\(|\bAssumptions\.assume\w*\s*\(|@Test\s*\(\s*enabled\s*=\s*false/,
  ),
  code('skip', 'skips a test (t.Skip)', /\bt\.Skip(?:Now|f)?\s*\(/),
  code(
    'skip',
    'leaves tests out of the run',
    /-DskipTests\b|\bmaven\.test\.skip\b|--deselect\b|\s-k\s+["']?not\s|\s-skip[=\s]|--testPathIgnorePatterns\b|--exclude-tests?\b/,
  ),

  // Deleting or weakening assertions.
  prose(
    'assertion',
    'deletes an assertion',
    `\\b(?:remove|removing|delete|deleting|drop|dropping|strip|stripping|get\\s+rid\\s+of|eliminate|omit|omitting)${gap(3)}${ASSERTION_NOUN}`,
    {
      unlessAfter:
        /\b(?:and|then)\s+(?:add|assert|expect|check|verify)\b|\b(?:replace|replacing)\b|\bwith\s+(?:an?\s+|the\s+)?(?:new\s+|correct\s+|updated\s+)?(?:assert|expect|check)|\bin\s+favou?r\s+of\b/i,
    },
  ),
  prose(
    'assertion',
    'weakens an assertion',
    `\\b(?:weaken|weakening|loosen|loosening|relax|relaxing)${gap(3)}(?:${ASSERTION_NOUN}|checks?\\b|tests?\\b|conditions?\\b|comparisons?\\b|matchers?\\b)|\\bmake${gap(3)}(?:${ASSERTION_NOUN}|tests?\\b|checks?\\b)(?:\\s+\\S+){0,2}?\\s+(?:less\\s+strict|more\\s+(?:lenient|permissive|forgiving|tolerant)|looser)\\b`,
  ),
  prose(
    'assertion',
    'loosens a tolerance',
    `\\b(?:loosen|relax|widen|increase|increasing|raise|raising|bump|enlarge|double)${gap(3)}(?:tolerances?|deltas?|epsilons?|margins?\\s+of\\s+error|allowed\\s+(?:error|difference|deviation))\\b|\\b(?:lower|reduce|decrease)${gap(3)}(?:precision|decimal\\s+places|significant\\s+digits)\\b(?=[^.;\\n]{0,40}\\b(?:assert|expect|compar|test))`,
  ),
  prose(
    'assertion',
    'replaces the expected value with whatever the code returns',
    `\\b(?:expected|expectations?|assertions?|snapshots?|golden(?:\\s+files?)?)\\b(?:\\s+\\S+){0,6}?\\s+(?:to|with|match|matches|equal|equals|be)\\s+(?:the\\s+)?(?:actual|observed|received)\\b|\\bwhatever\\s+(?:the\\s+)?(?:code|function|method|service|it|test|implementation)\\s+(?:now\\s+|currently\\s+)?(?:returns|produces|outputs|gives|prints)\\b|\\b(?:copy|paste|use|take)${gap(3)}(?:actual|observed|received)\\s+(?:values?|outputs?|results?)\\b`,
  ),
  code(
    'assertion',
    'asserts something trivially true',
    /\bassert(?:True|That)?\s*\(\s*(?:[Tt]rue|1\s*==\s*1)\s*\)|\bassert\s+True\s*(?:$|[#;])|\bassert\.(?:ok|True|true)\(\s*(?:t\s*,\s*)?true\s*\)|\bexpect\(\s*true\s*\)\.(?:toBe|toEqual|toBeTruthy)\(\s*(?:true\s*)?\)|\bexpect\.anything\(\)|\bassertThat\(\s*true\s*\)\.isTrue\(\)/m,
  ),
  code(
    'assertion',
    'updates snapshots blindly',
    /--update-?snapshots?\b|--updateSnapshot\b|--snapshot-update\b|\b(?:jest|vitest)\b[^\n]*\s-u\b/,
  ),

  // Swallowing exceptions.
  prose(
    'swallow',
    'swallows an exception',
    `\\b(?:catch|catching|wrap|wrapping|surround|surrounding)\\b(?:\\s+\\S+){0,8}?\\s+(?:and|to|then)\\s+(?:just\\s+|simply\\s+|silently\\s+)?(?:ignore|swallow|suppress|silence|discard|pass|log\\s+and\\s+continue)\\b`,
  ),
  prose(
    'swallow',
    'swallows an exception',
    `\\b(?:swallow|swallowing|suppress|suppressing|silence|silencing|ignore|ignoring|mute|muting|discard|discarding)${gap(3)}(?:exceptions?|errors?|failures?|panics?|errs?|throwables?|tracebacks?|stack\\s*traces?)\\b`,
    { scope: 'all' },
  ),
  code(
    'swallow',
    'swallows an exception (except: pass / empty catch)',
    /\bexcept\b[^:\n]*:\s*(?:#[^\n]*)?\n?\s*(?:pass\b|\.\.\.\s*(?:$|#|;))|\bcatch\s*(?:\([^)]*\))?\s*\{\s*(?:\/\/[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)?\}|\.catch\(\s*(?:\(\s*\w*\s*\)|\w+)\s*=>\s*(?:\{\s*\}|undefined|null|void 0)\s*\)/m,
  ),
  code(
    'swallow',
    'ignores a failing command or error',
    /\|\|\s*true\b|\|\|\s*:(?=\s|$)|\bset\s+\+e\b|\b(?:contextlib\.)?suppress\(\s*(?:Base)?Exception\s*\)|\b_\s*=\s*err\b|\bdefer\s+func\(\)\s*\{\s*(?:_\s*=\s*)?recover\(\)\s*\}\(\)/m,
  ),
  code(
    'swallow',
    'lets the build pass with failures',
    /\bcontinue-on-error:\s*true\b|\ballow_failure:\s*true\b|\bignore_errors\s*[:=]\s*(?:True|true|yes)\b|\btestFailureIgnore\b|\bmaven\.test\.failure\.ignore\b|--fail-never\b/,
  ),

  // Blanket retries.
  prose(
    'retry',
    'retries the test or the build',
    `\\b(?:just|simply)\\s+(?:retry|re-?run|re-?trigger|recheck)\\b|\\b(?:retry|re-?trigger|recheck)${gap(2)}(?:tests?|specs?|jobs?|builds?|pipelines?|ci|runs?|checks?)\\b`,
  ),
  prose(
    'retry',
    'adds retries to the tests',
    `\\b(?:add|adding|enable|enabling|configure|configuring|use|using|introduce|introducing|set\\s+up)${gap(3)}(?:automatic\\s+|auto-?)?(?:test\\s+)?(?:retr(?:y|ies)|re-?runs?)\\b(?![^.;\\n]{0,40}\\b(?:client|request|call|connection|http|query|backoff|producer|consumer)\\b)`,
  ),
  prose(
    'retry',
    'reruns until green',
    `\\buntil\\s+(?:it\\s+|they\\s+|the\\s+\\w+\\s+)?(?:passes|pass|is\\s+green|goes\\s+green|turns\\s+green|succeeds|works)\\b`,
    { scope: 'all' },
  ),
  code(
    'retry',
    'retries failing tests',
    /@flaky\b|\bpytest\.mark\.flaky\b|\bpytest-rerunfailures\b|--reruns\b|--rerun-fails\b|\bflaky\s*=\s*True\b|@(?:RepeatedTest|RetryingTest|Retry(?!able)\w*|Flaky\w*)\b|\bjest\.retryTimes\s*\(|\bthis\.retries\s*\(|\bretry:\s*\d|\bretries:\s*\d|--retr(?:y|ies)[=\s]\d|\brerunFailingTestsCount\b/,
  ),

  // Raising timeouts (allowed only with a cause: see timeout.ts).
  prose(
    'timeout',
    'raises a timeout',
    `\\b(?:increase|increasing|raise|raising|bump|bumping|extend|extending|double|doubling|triple|lengthen)${gap(3)}(?:time-?outs?|time\\s+limits?|deadlines?|wait(?:ing)?\\s+times?)\\b|\\b(?:longer|bigger|larger|higher|more\\s+generous|extended)\\s+(?:time-?outs?|time\\s+limits?)\\b|\\b(?:set|change|update|configure)${gap(3)}time-?outs?(?:\\s+\\S+){0,3}?\\s+to\\s+${DURATION}`,
    { scope: 'all' },
  ),
  code(
    'timeout',
    'raises a test timeout',
    /\bjest\.setTimeout\s*\(|\bvi\.setConfig\s*\(|\bthis\.timeout\s*\(|\b(?:test|hook)Timeout\s*[:=]|@Timeout\s*\(|@Test\s*\(\s*timeout\s*=|\bpytest\.mark\.timeout\b|--timeout[=\s]\d|\s-timeout[=\s]\d|\bsetDefaultTimeout\s*\(/,
  ),
];

/** Lines that assert, in the frameworks above: an edit that removes more of them than it adds weakens the test. */
export const ASSERTION_LINE =
  /\bassert\w*\s*[(\s]|\bexpect\s*\(|\.should\b|\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\b|\brequire\.\w+\(|\bverify\s*\(|\bfail\s*\(|\.toThrow\b|\.rejects\b|\bpytest\.raises\s*\(/;

/** A line that is only a comment, in the languages above. */
export const COMMENT_LINE = /^\s*(?:\/\/|#|\/\*|\*|<!--)/;
