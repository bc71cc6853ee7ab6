import type { PatchsetView } from '../../src/publish/index.ts';
import type { DiagnosisRun, FailureDiagnosis } from '../../src/schemas/index.ts';

export const REVISION = 'c'.repeat(40);

export const CART_TS = [
  'export function addItem(cart: Cart, item: Item): Cart {',
  '  const items = [...cart.items, item];',
  '  const total = items.reduce((sum, i) => sum + i.price, 0);',
  '  return { items, total: total * 0 };',
  '}',
  '',
].join('\n');

/** Text that came from a report: links, an image, a mention and markdown that must not render. */
export const HOSTILE =
  'AssertionError: see http://evil.example/x ![img](http://x/y.png) @admin [click](https://t.co/z) **bold** <b>';

export function failure(overrides: Partial<FailureDiagnosis> = {}): FailureDiagnosis {
  return {
    issue_id: '001',
    test: 'cart > adds items',
    report_url: 'http://ci.example/report/#suites/1/2',
    verdict: 'caused_by_change',
    category: 'code_regression',
    place: { level: 'line', file: 'src/cart.ts', function: 'addItem', lines: { start: 3, end: 4 } },
    why: [
      { text: 'the test expects total 30', cites: [{ kind: 'fact', issue_id: '001', index: 0 }] },
      { text: 'addItem multiplies the total by 0', cites: [{ kind: 'diff', file: 'src/cart.ts' }] },
    ],
    change: {
      target: 'code',
      file: 'src/cart.ts',
      function: 'addItem',
      advice: {
        text: 'return the summed total',
        cites: [{ kind: 'code', file: 'src/cart.ts', lines: { start: 4, end: 4 } }],
      },
      rationale: null,
      impact: [],
    },
    fix: null,
    verify: ['npx vitest run test/cart.test.ts'],
    missing_evidence: [],
    alternatives: [],
    ...overrides,
  };
}

/** A failure nothing could place: its report text is hostile, QA must bring the service log. */
export function undecidedFailure(issueId: string): FailureDiagnosis {
  return failure({
    issue_id: issueId,
    test: 'checkout > pays',
    verdict: 'need_evidence',
    category: 'need_evidence',
    place: { level: 'need_evidence', file: null, function: null, lines: null },
    why: [{ text: HOSTILE, cites: [{ kind: 'evidence', id: 'ev_log' }] }],
    change: null,
    missing_evidence: [{ what: 'the payment service log', who: 'qa' }],
  });
}

export function sampleRun(
  failures: FailureDiagnosis[] = [failure()],
  overrides: Partial<DiagnosisRun> = {},
): DiagnosisRun {
  return {
    schema_version: 1,
    run_id: 'run-1',
    change: { project: 'shop', number: 7, patchset: 2, revision: REVISION },
    report_url: 'http://ci.example/report/',
    page_url: 'http://diag.example/runs/run-1',
    engine: { name: 'rules', model: null, note: 'no model key configured' },
    created_at: '2026-11-30T12:00:00Z',
    failures,
    ...overrides,
  };
}

/** An in-memory patchset: the files Gerrit would list and their text at the revision. */
export function memoryPatchset(
  files: Record<string, string>,
  alsoInRepo: Record<string, string> = {},
): PatchsetView {
  return {
    files: async () => new Set(Object.keys(files)),
    text: async (path) => files[path] ?? alsoInRepo[path] ?? null,
  };
}
