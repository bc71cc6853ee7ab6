import type { Ablation } from './ablations.ts';
import { aggregate, type Metrics, type ScoredCase } from './metrics.ts';
import type { CaseResult } from './run.ts';

/** One row of the results: a run engine/ablation with its metrics and cases, or a skipped one. */
export type Row =
  | {
      ablation: Ablation;
      engine: string;
      status: 'ran';
      metrics: Metrics;
      /** The same metrics per truth verdict, per language and per source (real bug or scenario). */
      breakdown: Record<string, Metrics>;
      cases: CaseResult[];
    }
  | { ablation: Ablation; engine: string | null; status: 'skipped'; reason: string };

export interface EvalResults {
  schema_version: 1;
  corpus: string;
  created_at: string;
  rows: Row[];
}

export function ranRow(ablation: Ablation, engine: string, cases: CaseResult[]): Row {
  const ran = cases.filter((c) => c.error === null);
  return {
    ablation,
    engine,
    status: 'ran',
    metrics: aggregate(ran.map(scored)),
    breakdown: breakdown(ran),
    cases,
  };
}

function scored(c: CaseResult): ScoredCase {
  return {
    ms: c.ms,
    tokens: c.tokens,
    scores: c.failures.map((f) => f.score),
    checks: c.failures.map((f) => f.check),
  };
}

/** Groups named `verdict:…`, `language:…` and `source:real|scenario`, in name order. */
function breakdown(cases: readonly CaseResult[]): Record<string, Metrics> {
  const groups = new Map<string, CaseResult[]>();
  for (const c of cases) {
    if (c.group === null) continue;
    const names = [
      `verdict:${c.group.verdict}`,
      `language:${c.group.language ?? 'unknown'}`,
      `source:${c.group.real ? 'real' : 'scenario'}`,
    ];
    for (const name of names) groups.set(name, [...(groups.get(name) ?? []), c]);
  }
  return Object.fromEntries(
    [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, list]) => [name, aggregate(list.map(scored))]),
  );
}

/** The breakdown of one row as a plain-text table (the accuracy columns only). */
export function formatBreakdown(row: Row): string {
  if (row.status !== 'ran') return '';
  const keys: Array<keyof Metrics> = [
    'verdict',
    'wrongly_exonerated',
    'category',
    'file_top1',
    'line',
    'false_precise',
  ];
  const header = [
    'group',
    'cases',
    'failures',
    ...keys.map((k) => COLUMNS.find((c) => c.key === k)?.label ?? k),
  ];
  const lines = [
    header,
    ...Object.entries(row.breakdown).map(([name, m]) => [
      name,
      String(m.cases),
      String(m.failures),
      ...keys.map((k) => formatValue(m[k], '%')),
    ]),
  ];
  return alignColumns(lines).join('\n');
}

/** The metrics as columns: key, header, unit, and whether lower is better. */
export const COLUMNS: ReadonlyArray<{ key: keyof Metrics; label: string; unit: '%' | 'ms' | '' }> = [
  { key: 'verdict', label: 'verdict', unit: '%' },
  { key: 'wrongly_exonerated', label: 'wrongly exonerated', unit: '%' },
  { key: 'category', label: 'category', unit: '%' },
  { key: 'file_top1', label: 'file top-1', unit: '%' },
  { key: 'line', label: 'line', unit: '%' },
  { key: 'false_precise', label: 'false precise', unit: '%' },
  { key: 'completeness', label: 'complete', unit: '%' },
  { key: 'unsupported_before', label: 'unsupported before', unit: '%' },
  { key: 'unsupported_after', label: 'unsupported after', unit: '%' },
  { key: 'time_p50_ms', label: 'time p50', unit: 'ms' },
  { key: 'tokens', label: 'tokens', unit: '' },
];

export function formatValue(value: number | null, unit: '%' | 'ms' | ''): string {
  if (value === null) return 'n/a';
  if (unit === '%') return `${value.toFixed(1)}%`;
  if (unit === 'ms') return `${Math.round(value)}ms`;
  return String(Math.round(value));
}

/** A plain-text table, one line per row; skipped rows say why. */
export function formatTable(rows: readonly Row[]): string {
  const header = ['row', 'cases', 'failures', ...COLUMNS.map((c) => c.label)];
  const lines: string[][] = [header];
  const notes: string[] = [];
  for (const row of rows) {
    const name = `${row.ablation}${row.engine !== null && row.engine !== 'rules' ? ` (${row.engine})` : ''}`;
    if (row.status === 'skipped') {
      lines.push([name, '-', '-', ...COLUMNS.map(() => 'skipped')]);
      notes.push(`  ${row.ablation}: skipped — ${row.reason}`);
      continue;
    }
    const m = row.metrics;
    lines.push([
      name,
      String(m.cases),
      String(m.failures),
      ...COLUMNS.map((c) => formatValue(m[c.key], c.unit)),
    ]);
    for (const c of row.cases.filter((x) => x.error !== null))
      notes.push(`  ${row.ablation}: case ${c.id} not run — ${c.error}`);
  }
  return [...alignColumns(lines), ...notes].join('\n');
}

function alignColumns(lines: readonly string[][]): string[] {
  const widths = (lines[0] ?? []).map((_, i) => Math.max(...lines.map((l) => (l[i] ?? '').length)));
  return lines.map((l) =>
    l
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function pct(value: number | null): string {
  return value === null ? 'n/a' : `${value.toFixed(1)}%`;
}

/** `eval: verdict=…% category=…% file=…% line=…% false_precise=…% unsupported=…%` (unsupported = after the checker). */
export function summaryLine(m: Metrics): string {
  return (
    `eval: verdict=${pct(m.verdict)} category=${pct(m.category)} file=${pct(m.file_top1)} ` +
    `line=${pct(m.line)} false_precise=${pct(m.false_precise)} unsupported=${pct(m.unsupported_after)}`
  );
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One horizontal bar chart (inline SVG) of a metric over the rows; skipped rows drawn as such. */
export function barChart(title: string, unit: '%' | 'ms' | '', bars: ReadonlyArray<[string, number | null]>) {
  const rowH = 24;
  const labelW = 170;
  const barW = 320;
  const height = 30 + bars.length * rowH;
  const max = unit === '%' ? 100 : Math.max(1, ...bars.map(([, v]) => v ?? 0));
  const parts = bars.map(([label, value], i) => {
    const y = 26 + i * rowH;
    const w = value === null ? 0 : Math.max(0, (value / max) * barW);
    return (
      `<text x="0" y="${y + 14}" font-size="12">${escapeHtml(label)}</text>` +
      `<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="18" fill="#4878a8"/>` +
      `<text x="${labelW + w + 6}" y="${y + 14}" font-size="12">${escapeHtml(formatValue(value, unit))}</text>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + barW + 90}" height="${height}" ` +
    `role="img" aria-label="${escapeHtml(title)}"><text x="0" y="14" font-size="14" font-weight="bold">` +
    `${escapeHtml(title)}</text>${parts.join('')}</svg>`
  );
}

/** A static page: one inline-SVG chart per metric, the skipped rows listed; no script, no assets. */
export function renderHtml(results: EvalResults): string {
  const label = (r: Row) =>
    r.engine !== null && r.engine !== 'rules' ? `${r.ablation} (${r.engine})` : r.ablation;
  const charts = COLUMNS.map((c) =>
    barChart(
      c.label,
      c.unit,
      results.rows.map((r): [string, number | null] => [
        r.status === 'ran' ? label(r) : `${label(r)} (skipped)`,
        r.status === 'ran' ? r.metrics[c.key] : null,
      ]),
    ),
  );
  const skipped = results.rows
    .filter((r) => r.status === 'skipped')
    .map((r) => `<li>${escapeHtml(r.ablation)}: ${escapeHtml(r.status === 'skipped' ? r.reason : '')}</li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ci-diagnosis evaluation</title>
<style>body{font-family:sans-serif;margin:2em}figure{margin:1em 0}</style></head>
<body><h1>ci-diagnosis evaluation</h1>
<p>Corpus: ${escapeHtml(results.corpus)} · ${escapeHtml(results.created_at)}</p>
${skipped.length > 0 ? `<h2>Skipped rows</h2><ul>${skipped.join('')}</ul>` : ''}
${charts.map((svg) => `<figure>${svg}</figure>`).join('\n')}
</body></html>
`;
}
