import { describe, expect, it } from 'vitest';
import { gerritLinks } from '../../src/page/gerrit-links.ts';
import { highlightLines, languageOf } from '../../src/page/highlight.ts';
import { escapeHtml, externalUrl, html, ownUrl, visible } from '../../src/page/html.ts';
import { oneFailureRun } from './fixtures.ts';

describe('escaping', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    [`" onerror='x'`, '&quot; onerror=&#39;x&#39;'],
    ['a & b', 'a &amp; b'],
    ['&amp;', '&amp;amp;'],
  ])('escapes %j', (text, escaped) => {
    expect(escapeHtml(text)).toBe(escaped);
  });

  it('escapes interpolated strings and arrays, but not markup built by the tag', () => {
    const inner = html`<b>${'<i>'}</b>`;

    const out = html`<p title="${'"x"'}">${inner}${['<a>', inner]}${null}${false}${3}</p>`;

    expect(out.value).toBe('<p title="&quot;x&quot;"><b>&lt;i&gt;</b>&lt;a&gt;<b>&lt;i&gt;</b>3</p>');
  });

  it('shows bidi controls and other invisible characters by code point and drops terminal colour codes', () => {
    expect(visible('a\u202eb\u0000c\u001b[31;1mred\u001b[0m\td\n')).toBe(
      'a\u27e8U+202E\u27e9b\u27e8U+0000\u27e9cred\td\n',
    );
  });
});

describe('URLs', () => {
  it.each([
    ['http://ci.example.com/a b"c', 'http://ci.example.com/a%20b%22c'],
    ['HTTPS://ci.example.com/x#y', 'https://ci.example.com/x#y'],
    ['javascript:alert(1)', null],
    ['JavaScript:alert(1)//http://x', null],
    [' javascript:alert(1)', null],
    ['data:text/html,<script>', null],
    ['file:///etc/passwd', null],
    ['//evil.example.com/', null],
    ['/runs/1', null],
    ['http://', null],
    [null, null],
  ])('an outside URL %j becomes %j', (url, expected) => {
    expect(externalUrl(url)).toBe(expected);
  });

  it.each([
    ['/runs/abc', '/runs/abc'],
    ['/runs/a b', null],
    ['/runs/a"b<', '/runs/a%22b%3C'],
    ['//evil.example.com/x', null],
    ['/\\evil.example.com', null],
    ['https://diag.example.com/runs/1', 'https://diag.example.com/runs/1'],
    ['javascript:alert(1)', null],
    ['runs/1', null],
  ])('our own URL %j becomes %j', (url, expected) => {
    expect(ownUrl(url)).toBe(expected);
  });
});

describe('Gerrit links', () => {
  it('builds change and file URLs, keeping slashes and encoding each segment', () => {
    const run = oneFailureRun(
      {},
      { change: { project: 'team/shop app', number: 7, patchset: 2, revision: 'a'.repeat(40) } },
    );

    const links = gerritLinks(run, { baseUrl: 'https://gerrit.example.com/r/' });

    expect(links.change).toBe('https://gerrit.example.com/r/c/team/shop%20app/+/7/2');
    expect(links.file('src/a b#c.py', 12)).toBe(
      'https://gerrit.example.com/r/c/team/shop%20app/+/7/2/src/a%20b%23c.py#12',
    );
    expect(links.file('src/app.py')).toBe('https://gerrit.example.com/r/c/team/shop%20app/+/7/2/src/app.py');
    expect(links.file('../../etc/passwd', 1)).toBeNull();
  });

  it.each([
    ['no Gerrit', undefined],
    ['a script URL', { baseUrl: 'javascript:alert(1)//' }],
  ])('gives no links with %s', (_name, gerrit) => {
    const links = gerritLinks(oneFailureRun(), gerrit);

    expect([links.change, links.file('src/app.py', 1)]).toEqual([null, null]);
  });

  it('gives no links for a run outside a change', () => {
    const run = oneFailureRun(
      {},
      { change: { project: null, number: null, patchset: null, revision: 'a'.repeat(40) } },
    );

    expect(gerritLinks(run, { baseUrl: 'https://gerrit.example.com' }).change).toBeNull();
  });
});

describe('highlighting', () => {
  it.each([
    ['src/app.py', 'python'],
    ['A.java', 'java'],
    ['x.kt', 'kotlin'],
    ['m.go', 'go'],
    ['a.test.ts', 'typescript'],
    ['b.jsx', 'javascript'],
    ['Makefile', null],
    ['.py', null],
    ['notes.txt', null],
  ])('%s is %s', (path, language) => {
    expect(languageOf(path)).toBe(language);
  });

  it('cuts highlighted code into balanced lines, closing and reopening spans at line ends', () => {
    const lines = highlightLines('def f():\n    """two\n    lines"""\n    return 1', 'python').map(String);

    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.match(/<span /g)?.length ?? 0).toBe(line.match(/<\/span>/g)?.length ?? 0);
    }
    expect(lines[1]).toBe('    <span class="hljs-string">&quot;&quot;&quot;two</span>');
    expect(lines[2]).toBe('<span class="hljs-string">    lines&quot;&quot;&quot;</span>');
  });

  it('escapes code in unknown languages and in known ones alike', () => {
    const plain = highlightLines('a <b> & "c"', null).map(String);
    const python = highlightLines('x = "</span><script>"', 'python').map(String);

    expect(plain).toEqual(['a &lt;b&gt; &amp; &quot;c&quot;']);
    expect(python.join('')).not.toContain('<script');
    expect(python.join('')).toContain('&lt;/span&gt;&lt;script&gt;');
  });
});
