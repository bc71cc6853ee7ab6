import { describe, expect, it } from 'vitest';
import { buildReview, diagnosisDigest, PublishOptions, parseMarker } from '../../src/publish/index.ts';
import { CART_TS, failure, HOSTILE, memoryPatchset, sampleRun } from './sample.ts';

const TEST_TS = ['describe("cart", () => {', '  it("adds items", () => {});', '});', ''].join('\n');
const patchset = memoryPatchset(
  { 'src/cart.ts': CART_TS, 'test/cart.test.ts': TEST_TS },
  { 'src/util.ts': 'x\n' },
);
const defaults = PublishOptions.parse({});

const verifiedFix = {
  description: 'Return the summed total',
  replacements: [
    {
      path: 'src/cart.ts',
      range: { start_line: 4, start_character: 25, end_line: 4, end_character: 34 },
      replacement: 'total',
    },
  ],
  verification: {
    command: 'npx vitest run test/cart.test.ts',
    outcome: 'passed' as const,
    evidence: 'ev_run',
  },
};

const run = sampleRun([
  failure({ fix: verifiedFix }),
  failure({
    issue_id: '002',
    test: 'cart > renders label',
    verdict: 'caused_by_change',
    category: 'stale_test_expectation',
    place: { level: 'function', file: 'test/cart.test.ts', function: 'adds items', lines: null },
  }),
  failure({
    issue_id: '003',
    test: 'util > formats',
    verdict: 'pre_existing',
    category: 'pre_existing',
    place: { level: 'file', file: 'src/util.ts', function: null, lines: null },
  }),
  failure({
    issue_id: '004',
    test: 'checkout > pays',
    verdict: 'need_evidence',
    category: 'need_evidence',
    place: { level: 'need_evidence', file: null, function: null, lines: null },
    why: [{ text: HOSTILE, cites: [{ kind: 'evidence', id: 'ev_log' }] }],
    change: null,
    missing_evidence: [{ what: 'the payment service log of the run', who: 'qa' }],
  }),
]);

describe('buildReview', () => {
  it('comments inline only on confirmed lines, on files for function and file places, nowhere for the rest', async () => {
    const { review } = await buildReview(run, patchset, defaults);
    expect(Object.keys(review.comments ?? {}).sort()).toEqual(['src/cart.ts', 'test/cart.test.ts']);
    const [inline] = review.comments?.['src/cart.ts'] ?? [];
    expect(inline).toMatchObject({
      line: 4,
      range: {
        start_line: 3,
        start_character: 0,
        end_line: 4,
        end_character: '  return { items, total: total * 0 };'.length,
      },
      unresolved: true,
    });
    const [fileComment] = review.comments?.['test/cart.test.ts'] ?? [];
    expect(fileComment?.line).toBeUndefined();
    expect(fileComment?.range).toBeUndefined();
    expect(fileComment?.message).toContain('In `adds items`.');
  });

  it('attaches a verified fix as a fix suggestion, or as text when suggestions are off', async () => {
    const on = await buildReview(run, patchset, defaults);
    expect(on.fixSuggestions).toBe(1);
    expect(on.review.comments?.['src/cart.ts']?.[0]?.fix_suggestions).toEqual([
      { description: verifiedFix.description, replacements: verifiedFix.replacements },
    ]);
    const off = await buildReview(run, patchset, { ...defaults, fixSuggestions: false });
    const comment = off.review.comments?.['src/cart.ts']?.[0];
    expect(comment?.fix_suggestions).toBeUndefined();
    expect(comment?.message).toContain('`src/cart.ts` 4:25–4:34 becomes:\n```\ntotal\n```');
    expect(off.review.message).toContain('fix shown as text');
  });

  it('degrades a line place whose lines are not in the file to a file comment', async () => {
    const moved = sampleRun([
      failure({
        place: { level: 'line', file: 'src/cart.ts', function: 'addItem', lines: { start: 40, end: 41 } },
      }),
    ]);
    const { review } = await buildReview(moved, patchset, defaults);
    const [comment] = review.comments?.['src/cart.ts'] ?? [];
    expect(comment?.line).toBeUndefined();
    expect(comment?.message).toContain('could not be confirmed at this revision');
    expect(review.message).toContain('- In the diff: file comment');
  });

  it('writes one summary per run: where, why, change, verify, missing evidence, links and the marker', async () => {
    const { review, digest } = await buildReview(run, patchset, defaults);
    const message = review.message ?? '';
    expect(message).toMatch(
      /^\*\*CI failure diagnosis\*\* · patchset 2 · 4 failures: 2 caused by this change, 1 pre-existing, 1 undecided\n\[Report page\]\(http:\/\/diag\.example\/runs\/run-1\) · \[CI report\]\(http:\/\/ci\.example\/report\/\)/,
    );
    expect(message).toContain('- Where: `src/cart.ts` lines 3–4 in `addItem` (line confirmed)');
    expect(message).toContain('- Where: `test/cart.test.ts` in `adds items` (function confirmed, line not)');
    expect(message).toContain('- Where: `src/util.ts` (file only)');
    expect(message).toContain('- Where: not confirmed (needs evidence)');
    expect(message).toContain('- Missing evidence: the payment service log of the run (QA)');
    expect(message).toContain('- Verify: `npx vitest run test/cart.test.ts`');
    expect(message).toContain('- Fix: verified edit, `npx vitest run test/cart.test.ts` passed');
    expect(message).toContain("[The report's page for this test](http://ci.example/report/#suites/1/2)");
    expect(parseMarker(message)).toEqual({ runId: 'run-1', digest });
    expect(review).toMatchObject({
      tag: 'autogenerated:ci-diagnosis',
      notify: 'NONE',
      omit_duplicate_comments: true,
    });
  });

  it('escapes report text in the summary: no links, images or mentions from the log', async () => {
    const { review } = await buildReview(run, patchset, defaults);
    const message = review.message ?? '';
    expect(message).not.toContain('http://evil');
    expect(message).not.toMatch(/@admin/);
    expect(message).not.toMatch(/[^\\]!\[img\]/);
    expect(message).toContain('\\!\\[img\\]');
  });

  it('keeps within the caps: partial comments and a counted rest, never nothing', async () => {
    const many = sampleRun(
      Array.from({ length: 40 }, (_, i) =>
        failure({ issue_id: `i${i}`, test: `t${i} ${'long '.repeat(60)}` }),
      ),
    );
    const limits = { maxMessageBytes: 4_000, maxCommentBytes: 600, maxComments: 3, maxFailuresInSummary: 10 };
    const { review } = await buildReview(many, patchset, { ...defaults, limits });
    expect(review.comments?.['src/cart.ts']).toHaveLength(3);
    for (const c of review.comments?.['src/cart.ts'] ?? [])
      expect(Buffer.byteLength(c.message)).toBeLessThanOrEqual(600);
    const message = review.message ?? '';
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(4_000);
    expect(message).toMatch(/…and \d+ more failures: see \[the report page\]/);
    expect(message).toContain('**1. `t0');
    expect(message).toContain('comment left out (too many for one post; see the report page)');
    expect(parseMarker(message)?.runId).toBe('run-1');
  });

  it('digests what the diagnosis says, not which run said it', () => {
    const again = sampleRun(run.failures, {
      run_id: 'run-2',
      created_at: '2026-12-01T00:00:00Z',
      page_url: 'http://x/2',
    });
    expect(diagnosisDigest(again)).toBe(diagnosisDigest(run));
    const otherVerdict = sampleRun([
      failure({ fix: verifiedFix, verdict: 'flaky' }),
      ...run.failures.slice(1),
    ]);
    expect(diagnosisDigest(otherVerdict)).not.toBe(diagnosisDigest(run));
    const otherPatchset = sampleRun(run.failures, { change: { ...run.change, revision: 'd'.repeat(40) } });
    expect(diagnosisDigest(otherPatchset)).not.toBe(diagnosisDigest(run));
  });
});
