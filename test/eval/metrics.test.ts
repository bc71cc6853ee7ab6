import { describe, expect, it } from 'vitest';
import { planRows } from '../../src/eval/ablations.ts';
import {
  aggregate,
  claimSupport,
  isComplete,
  percentile,
  scoreFailure,
  type Truth,
} from '../../src/eval/metrics.ts';
import { barChart, summaryLine } from '../../src/eval/report.ts';
import type { CheckFinding, FailureDiagnosis } from '../../src/schemas/index.ts';

const cite = { kind: 'signal', name: 'diff_impact', detail: 'x' } as const;

function diagnosis(over: Partial<FailureDiagnosis> = {}): FailureDiagnosis {
  return {
    issue_id: 'i1',
    test: 't',
    report_url: null,
    verdict: 'caused_by_change',
    category: 'code_regression',
    place: {
      level: 'line',
      file: 'pricing/price.py',
      function: 'gross_price',
      lines: { start: 16, end: 16 },
    },
    why: [{ text: 'the change truncates', cites: [cite] }],
    change: {
      target: 'code',
      file: 'pricing/price.py',
      function: 'gross_price',
      advice: { text: 'round half up', cites: [cite] },
      rationale: null,
      impact: [],
    },
    fix: null,
    verify: ['pytest tests/test_price.py'],
    missing_evidence: [],
    alternatives: [],
    ...over,
  };
}

const truth: Truth = {
  verdict: 'caused_by_change',
  category: 'code_regression',
  failures: 1,
  locations: [{ file: 'pricing/price.py', function: 'gross_price', lines: [15, 16] }],
};
const envTruth: Truth = { verdict: 'environment', category: 'environment', failures: 1, locations: [] };

describe('scoreFailure', () => {
  it('scores a right, line-precise diagnosis as a hit everywhere', () => {
    expect(scoreFailure(diagnosis(), truth)).toEqual({
      verdict: true,
      category: true,
      wronglyExonerated: false,
      file: true,
      line: true,
      falsePrecise: false,
      complete: true,
    });
  });

  it('counts verdict and category misses', () => {
    const s = scoreFailure(diagnosis({ verdict: 'need_evidence', category: 'fixture_or_mock' }), truth);
    expect([s.verdict, s.category]).toEqual([false, false]);
  });

  it('marks a caused_by_change failure called flaky, pre_existing or environment as wrongly exonerated', () => {
    for (const verdict of ['flaky', 'pre_existing', 'environment'] as const)
      expect(scoreFailure(diagnosis({ verdict }), truth).wronglyExonerated).toBe(true);
    // need_evidence does not exonerate; a non-caused truth is not counted
    expect(scoreFailure(diagnosis({ verdict: 'need_evidence' }), truth).wronglyExonerated).toBe(false);
    expect(scoreFailure(diagnosis({ verdict: 'environment' }), envTruth).wronglyExonerated).toBeNull();
  });

  it('a function-level place never counts as a line hit, even with overlapping lines', () => {
    const place = {
      level: 'function' as const,
      file: 'pricing/price.py',
      function: 'gross_price',
      lines: { start: 10, end: 16 },
    };
    const s = scoreFailure(diagnosis({ place }), truth);
    expect(s.line).toBe(false);
    expect(s.falsePrecise).toBeNull();
    expect(s.file).toBe(true);
  });

  it('a line place outside the truth lines or in another file is false-precise', () => {
    const off = {
      level: 'line' as const,
      file: 'pricing/price.py',
      function: null,
      lines: { start: 3, end: 4 },
    };
    expect(scoreFailure(diagnosis({ place: off }), truth)).toMatchObject({ line: false, falsePrecise: true });
    const other = { ...off, file: 'pricing/other.py', lines: { start: 15, end: 16 } };
    expect(scoreFailure(diagnosis({ place: other }), truth)).toMatchObject({
      file: false,
      line: false,
      falsePrecise: true,
    });
  });

  it('excludes file and line localisation when the truth has no locations, but still counts false precision', () => {
    const s = scoreFailure(diagnosis({ verdict: 'environment', category: 'environment' }), envTruth);
    expect([s.file, s.line, s.falsePrecise]).toEqual([null, null, true]);
    const noPlace = { level: 'need_evidence' as const, file: null, function: null, lines: null };
    const t = scoreFailure(diagnosis({ place: noPlace }), envTruth);
    expect([t.file, t.line, t.falsePrecise]).toEqual([null, null, null]);
  });

  it('file top-1 misses a place without a file', () => {
    const noPlace = { level: 'need_evidence' as const, file: null, function: null, lines: null };
    expect(scoreFailure(diagnosis({ place: noPlace }), truth).file).toBe(false);
  });
});

describe('isComplete', () => {
  it('accepts filled fields and explicit unknowns', () => {
    expect(isComplete(diagnosis())).toBe(true);
    const unknown = diagnosis({
      verdict: 'need_evidence',
      category: 'need_evidence',
      place: { level: 'need_evidence', file: null, function: null, lines: null },
      change: null,
      verify: [],
      missing_evidence: [{ what: 'the CI log', who: 'ci_admin' }],
    });
    expect(isComplete(unknown)).toBe(true);
  });

  it('rejects an empty why, or a missing change/verify without missing evidence', () => {
    expect(isComplete(diagnosis({ why: [] }))).toBe(false);
    expect(isComplete(diagnosis({ change: null }))).toBe(false);
    expect(isComplete(diagnosis({ verify: [] }))).toBe(false);
  });
});

describe('claimSupport', () => {
  const err = (path: string): CheckFinding => ({
    code: 'evidence_not_found',
    severity: 'error',
    path,
    message: '',
  });
  const draft = diagnosis({
    why: [
      { text: 'a', cites: [cite, cite] },
      { text: 'b', cites: [cite] },
      { text: 'c', cites: [] },
    ],
  });

  it('counts claims rejected outright, with every citation failed, or citing nothing', () => {
    const findings = [
      err('why.0.cites.0'), // one of two failed: still supported
      err('why.1.cites.0'), // its only citation failed
      { ...err('change.advice.cites.0'), severity: 'warning' as const }, // warnings do not count
    ];
    expect(claimSupport(draft, findings)).toEqual({ claims: 4, unsupported: 2 });
  });

  it('is zero unsupported when the checker found nothing', () => {
    expect(claimSupport(diagnosis(), [])).toEqual({ claims: 2, unsupported: 0 });
    expect(claimSupport(diagnosis(), [err('why.0')])).toEqual({ claims: 2, unsupported: 1 });
  });
});

describe('aggregate', () => {
  it('pools failures, excludes uncounted values and takes the p50 time per case', () => {
    const hit = scoreFailure(diagnosis(), truth);
    const miss = scoreFailure(diagnosis({ verdict: 'flaky', category: 'flaky' }), truth);
    const env = scoreFailure(
      diagnosis({
        verdict: 'environment',
        category: 'environment',
        place: { level: 'file', file: 'x.go', function: null, lines: null },
      }),
      envTruth,
    );
    const check = { before: { claims: 4, unsupported: 1 }, after: { claims: 3, unsupported: 0 } };
    const m = aggregate([
      { ms: 100, tokens: 10, scores: [hit, miss], checks: [check, check] },
      { ms: 300, tokens: 0, scores: [env], checks: [check] },
      { ms: 200, tokens: 5, scores: [], checks: [] },
    ]);
    expect(m).toMatchObject({
      cases: 3,
      failures: 3,
      wrongly_exonerated: 50,
      file_top1: 100,
      line: 100,
      false_precise: 0,
      unsupported_before: 25,
      unsupported_after: 0,
      time_p50_ms: 200,
      tokens: 15,
      tokens_per_case: 5,
    });
    expect(m.verdict).toBeCloseTo(200 / 3);
    expect(aggregate([]).verdict).toBeNull();
  });

  it('percentile uses the nearest rank', () => {
    expect(percentile([5, 1, 3, 2], 50)).toBe(2);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('rows and output', () => {
  it('never runs model rows without a key, and says why', () => {
    const rows = planRows(['rules', 'diff+model', 'facts+gate+skill'], 'claude', false);
    expect(rows.map((r) => r.run)).toEqual(['rules', 'skip', 'skip']);
    expect(rows[1]).toMatchObject({ reason: expect.stringContaining('ANTHROPIC_API_KEY') });
    const keyed = planRows(['rules', 'diff+model', 'facts+gate+skill', '+delegation'], 'claude', true);
    expect(keyed.map((r) => r.run)).toEqual(['rules', 'claude', 'claude', 'claude']);
    const rules = planRows(['rules', 'diff+model'], 'rules', true);
    expect(rules[1]).toMatchObject({ run: 'skip', reason: expect.stringContaining('--engine rules') });
  });

  it('prints the summary line and draws an SVG bar', () => {
    const m = aggregate([{ ms: 1, tokens: 0, scores: [scoreFailure(diagnosis(), truth)], checks: [] }]);
    expect(summaryLine(m)).toBe(
      'eval: verdict=100.0% category=100.0% file=100.0% line=100.0% false_precise=0.0% unsupported=n/a',
    );
    expect(barChart('verdict', '%', [['rules', 50]])).toMatch(/^<svg[^>]*>.*<rect[^>]*width="160\.0"/);
  });
});
