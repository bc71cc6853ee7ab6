import { describe, expect, it } from 'vitest';
import { codeBlock, defang, inlineCode, inlineText, link } from '../../src/publish/index.ts';
import { HOSTILE } from './sample.ts';

/** What Gerrit would linkify, embed or treat as a mention in rendered markdown. */
function renderHazards(markdown: string): string[] {
  const hazards: string[] = [];
  if (/https?:\/\//.test(markdown)) hazards.push('url');
  if (/\bwww\./i.test(markdown)) hazards.push('www');
  if (/(^|[^\\])!\[/.test(markdown)) hazards.push('image');
  if (/(^|[^\\])\]\(/.test(markdown)) hazards.push('link');
  if (/@\w/.test(markdown)) hazards.push('mention');
  if (/(^|[^\\])<b>/.test(markdown)) hazards.push('html');
  if (/(^|[^\\])\*\*/.test(markdown)) hazards.push('emphasis');
  return hazards;
}

describe('markdown escaping of report text', () => {
  it('leaves no link, image, mention, HTML or emphasis in inline text', () => {
    expect(renderHazards(HOSTILE)).toEqual(['url', 'image', 'link', 'mention', 'html', 'emphasis']);
    expect(renderHazards(inlineText(HOSTILE))).toEqual([]);
  });

  it('keeps what a reader sees: only invisible characters and backslashes are added', () => {
    const escaped = inlineText(HOSTILE);
    expect(escaped.replace(/\u200b/g, '').replace(/\\(.)/g, '$1')).toBe(HOSTILE);
  });

  it('collapses lines and clips long text with a marker', () => {
    expect(inlineText('a\n\n  b', 100)).toBe('a b');
    expect(inlineText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('escapes a leading list or heading marker', () => {
    expect(inlineText('# not a heading')).toBe('\\# not a heading');
    expect(inlineText('1. not a list')).toBe('\\1. not a list');
  });

  it('fences code with more backticks than it contains, links and mentions still broken', () => {
    const block = codeBlock('const s = `a ``` b`; // mail @admin at https://x.io', 'ts');
    expect(block.startsWith('````ts\n')).toBe(true);
    expect(block.endsWith('\n````')).toBe(true);
    expect(renderHazards(block)).toEqual([]);
    expect(inlineCode('a`b')).toBe('``a`b``');
    expect(inlineCode('`x')).toBe('`` `x ``');
  });

  it('links only http(s) URLs and escapes the label', () => {
    expect(link('Report [page]', 'https://diag.example/runs/1')).toBe(
      '[Report \\[page\\]](https://diag.example/runs/1)',
    );
    expect(link('page', 'javascript:alert(1)')).toBe('page');
    expect(link('p', 'http://x/a(b)')).toBe('[p](http://x/a%28b%29)');
  });

  it('defang breaks schemes, www hosts and mentions', () => {
    expect(renderHazards(defang('http://a www.b.c @d'))).toEqual([]);
  });
});
