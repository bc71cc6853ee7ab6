import type { DiagnosisRun } from '../schemas/index.ts';

/**
 * The run's repair report: per failure what was concluded, at what confidence, what the checker
 * found and changed, and what it cost — the page for whoever audits the engine.
 */
export function repairReport(run: DiagnosisRun): string {
  const engine = run.engine.name === 'model' ? `model ${run.engine.model}` : 'rules engine';
  const lines = [
    `# Repair report: run ${run.run_id}`,
    '',
    `Revision ${run.change.revision} · ${run.failures.length} failures · ${engine}${run.engine.note ? ` (${run.engine.note})` : ''}`,
    '',
    '| # | test | verdict | category | place | checker | repaired | degraded | tokens | tool calls |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  let tokens = 0;
  for (const [i, f] of run.failures.entries()) {
    const used = f.usage ? f.usage.input_tokens + f.usage.output_tokens : 0;
    tokens += used;
    const errors = f.check?.findings.filter((x) => x.severity === 'error').length ?? 0;
    const warnings = (f.check?.findings.length ?? 0) - errors;
    const place =
      f.place.file === null
        ? f.place.level
        : `${f.place.level} ${f.place.file}${f.place.lines ? `:${f.place.lines.start}-${f.place.lines.end}` : ''}`;
    lines.push(
      `| ${i + 1} | ${cell(f.test)} | ${f.verdict} | ${f.category} | ${cell(place)} | ${errors} errors, ${warnings} warnings | ${f.check?.repair_rounds ?? 0} | ${f.check?.degraded ? 'yes' : 'no'} | ${used} | ${f.usage?.tool_calls ?? 0} |`,
    );
  }
  lines.push('', `Tokens in all: ${tokens}.`);
  for (const [i, f] of run.failures.entries()) {
    for (const finding of f.check?.findings ?? []) {
      lines.push(
        `- failure ${i + 1}: ${finding.severity} ${finding.code} at ${finding.path || '(draft)'}: ${cell(finding.message)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}
