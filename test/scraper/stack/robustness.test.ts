import { describe, expect, it } from 'vitest';
import { parseStackTrace } from '../../../scraper/stack/index.ts';
import { parseTrace } from '../../../scraper/stack/parse.ts';
import { Location } from '../../../src/schemas/facts.ts';
import { expectRole } from './helpers.ts';

/** Deterministic pseudo-random text built from fragments that look like parts of frames. */
function noise(seed: number, pieces: number): string {
  const fragments = [
    '\tat ',
    'com.example.A.b(',
    'A.java:',
    ')',
    '  File "',
    '", line ',
    ', in ',
    'goroutine 1 [running]:\n',
    '.go:',
    ' +0x1f',
    '    at ',
    ' (',
    'file:///C:/',
    'webpack://x/',
    'http://h:1/',
    ':',
    '12',
    '0',
    '\n',
    ' ❯ ',
    '|',
    '@',
    '> ',
    'E   ',
    '_ _ _',
    'Caused by: ',
    '[cause]: ',
    'Suppressed: ',
    '\\',
    '(((',
    ')))',
    '%zz',
    '.py',
    '--- FAIL: ',
  ];
  let state = seed;
  let text = '';
  for (let i = 0; i < pieces; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += fragments[state % fragments.length];
  }
  return text;
}

describe('stack parsing robustness', () => {
  it.each(['', '   ', 'AssertionError: expected 3 to equal 2', 'null', '\u0000\u0001\u0002'])(
    'unknown text %j gives no locations',
    (trace) => {
      expect(parseStackTrace(trace)).toEqual([]);
    },
  );

  it('never throws on fragment noise and always returns schema-valid locations', () => {
    // parseTrace has no safety net, so a parser bug shows up here instead of being swallowed.
    for (let seed = 1; seed <= 400; seed += 1) {
      const trace = noise(seed, 200);
      const locations = parseTrace(trace, { testName: 'b', testFile: 'A.java', projectPrefixes: ['com.'] });
      expect(() => Location.array().parse(locations)).not.toThrow();
      expect(locations.filter((l) => l.role === 'failure').length).toBeLessThanOrEqual(1);
      expect(locations.filter((l) => l.role === 'test').length).toBeLessThanOrEqual(1);
    }
  });

  it('cuts a huge Java trace to 200 frames, keeping the raise and the test below the recursion', () => {
    const frame = '\tat com.example.deep.Recursion.step(Recursion.java:7)\n';
    const trace = [
      'java.lang.StackOverflowError',
      '\tat com.example.deep.Recursion.leaf(Recursion.java:3)',
      frame.repeat(10_000).trimEnd(),
      '\tat com.example.deep.RecursionTest.overflows(RecursionTest.java:12)',
      '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)',
    ].join('\n');
    const locations = parseStackTrace(trace);
    expect(locations).toHaveLength(200);
    expect(locations.map((l) => l.frame_index).slice(148, 152)).toEqual([148, 149, 9953, 9954]);
    expectRole(locations, 'failure', {
      file: 'com/example/deep/Recursion.java',
      line: 3,
      function: 'Recursion.leaf',
      frame_index: 0,
    });
    expectRole(locations, 'test', {
      file: 'com/example/deep/RecursionTest.java',
      line: 12,
      function: 'RecursionTest.overflows',
      frame_index: 10_001,
    });
  });

  it('cuts a Python RecursionError from the middle, since Python prints the raise last', () => {
    const frame = '  File "/w/shop/tree.py", line 3, in depth\n    return 1 + depth(node.child)\n';
    const trace = [
      'Traceback (most recent call last):',
      '  File "/w/tests/test_tree.py", line 8, in test_depth',
      '    assert depth(tree) == 3',
      frame.repeat(500).trimEnd(),
      '  File "/w/shop/tree.py", line 2, in depth',
      '    if node.child is node: raise RecursionError("cycle")',
      'RecursionError: cycle',
    ].join('\n');
    const locations = parseStackTrace(trace);
    expect(locations).toHaveLength(200);
    expectRole(locations, 'failure', {
      file: '/w/shop/tree.py',
      line: 2,
      function: 'depth',
      snippet: 'if node.child is node: raise RecursionError("cycle")',
      frame_index: 501,
    });
    expectRole(locations, 'test', {
      file: '/w/tests/test_tree.py',
      line: 8,
      function: 'test_depth',
      frame_index: 0,
    });
  });

  it('stays fast on a megabyte line and many short lines', () => {
    const started = Date.now();
    expect(parseStackTrace(`at ${'x'.repeat(1_000_000)}:1:2`)).toEqual([]);
    expect(parseStackTrace('a:1:\n'.repeat(200_000))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('reads CRLF traces like LF ones', () => {
    const lf = 'Error: boom\n    at run (/w/src/job.js:3:9)\n    at /w/test/job.test.js:8:5';
    expect(parseStackTrace(lf.replace(/\n/g, '\r\n'))).toEqual(parseStackTrace(lf));
    expect(parseStackTrace(lf)).toHaveLength(2);
  });

  it('treats a line 0 as no line', () => {
    const [frame] = parseStackTrace('Error: x\n    at f (/w/src/a.js:0:0)');
    expect(frame).toMatchObject({ file: '/w/src/a.js', line: null, column: null });
  });
});
