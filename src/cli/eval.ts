import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { Logger } from 'pino';
import { chooseEngine } from '../diagnose/index.ts';
import { DiagnosisError } from '../errors/index.ts';
import { parseAblations, planRows } from '../eval/ablations.ts';
import {
  type EvalResults,
  formatBreakdown,
  formatTable,
  type Row,
  ranRow,
  renderHtml,
  summaryLine,
} from '../eval/report.ts';
import { listCases, runRow } from '../eval/run.ts';
import { ScrapeMode } from '../schemas/index.ts';
import { writeOutput } from './io.ts';
import { createProgress } from './progress.ts';

interface EvalFlags {
  corpus: string;
  engine?: 'rules' | 'claude';
  ablation?: string[];
  out: string;
  cases?: string;
  mode?: ScrapeMode;
  model?: string[];
}

export function registerEval(program: Command, log: Logger, platformsDir: string): void {
  program
    .command('eval')
    .description(
      'Score the diagnosis against a corpus of cases with known truth: table, results.json, index.html',
    )
    .requiredOption('--corpus <dir>', 'a corpus folder (one sub-folder with a case.json per case)')
    .option(
      '--engine <name>',
      'rules | claude (default: claude with ANTHROPIC_API_KEY, else rules)',
      parseEngine,
    )
    .option('--ablation <name...>', 'rows besides rules: diff+model facts+model facts+gate+skill +delegation')
    .option('--model <names...>', 'model rows once per model, to compare them (default: CI_DIAGNOSIS_MODEL)')
    .option('--out <dir>', 'where results.json and index.html go', 'out/eval')
    .option('--cases <ids>', 'only these cases (comma-separated ids)')
    .option(
      '-m, --mode <mode>',
      'scrape mode (default: data for Allure, the platform’s first otherwise)',
      parseMode,
    )
    .action(async (flags: EvalFlags) => {
      const results = await runEval(flags, log, platformsDir);
      writeOutput(join(flags.out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
      writeOutput(join(flags.out, 'index.html'), renderHtml(results));
      const rules = results.rows.find((r) => r.ablation === 'rules');
      process.stdout.write(`${formatTable(results.rows)}\n`);
      if (rules !== undefined && rules.status === 'ran')
        process.stdout.write(`\nrules by group:\n${formatBreakdown(rules)}\n`);
      process.stdout.write(`written to ${flags.out}/: results.json, index.html\n`);
      if (rules?.status === 'ran') process.stdout.write(`${summaryLine(rules.metrics)}\n`);
    });
}

async function runEval(flags: EvalFlags, log: Logger, platformsDir: string): Promise<EvalResults> {
  const corpus = resolve(flags.corpus);
  const only = flags.cases
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const cases = await listCases(corpus, only);
  if (cases.length === 0)
    throw new DiagnosisError(
      'CORPUS_INVALID',
      `no cases${only ? ` (${only.join(', ')})` : ''} in ${corpus}`,
      {
        input: corpus,
      },
    );
  const missing = (only ?? []).filter((id) => !cases.includes(id));
  if (missing.length > 0)
    throw new DiagnosisError('CORPUS_INVALID', `no such case in ${corpus}: ${missing.join(', ')}`, {
      input: corpus,
    });
  const hasKey = Boolean(process.env.ANTHROPIC_API_KEY);
  const engineName = flags.engine ?? (hasKey ? 'claude' : 'rules');
  const plans = planRows(parseAblations(flags.ablation), engineName, hasKey);
  const progress = createProgress(log);
  const rows: Row[] = [];
  const models = (flags.model ?? []).flatMap((m) => m.split(',')).filter((m) => m.length > 0);
  for (const plan of plans) {
    if (plan.run === 'skip') {
      rows.push({ ablation: plan.ablation, engine: null, status: 'skipped', reason: plan.reason });
      continue;
    }
    const variant = plan.run === 'claude' ? plan : null;
    for (const model of variant === null || models.length === 0 ? [undefined] : models) {
      const engine = await chooseEngine(process.env, {
        engine: plan.run,
        ...(variant === null ? {} : { input: variant.input }),
        ...(model === undefined ? {} : { model }),
      });
      const name = engine.name === 'rules' ? 'rules' : (engine.model ?? 'model');
      const results = await runRow(
        corpus,
        cases,
        {
          engine,
          delegation: variant?.delegation ?? false,
          gate: variant?.gate ?? true,
          ...(flags.mode ? { mode: flags.mode } : {}),
          platformsDir,
        },
        progress,
        `eval ${plan.ablation} ${name}`,
      );
      rows.push(ranRow(plan.ablation, name, results));
    }
  }
  return { schema_version: 1, corpus, created_at: new Date().toISOString(), rows };
}

function parseEngine(value: string): 'rules' | 'claude' {
  if (value !== 'rules' && value !== 'claude')
    throw new InvalidArgumentError('engine must be rules or claude');
  return value;
}

function parseMode(value: string): ScrapeMode {
  const parsed = ScrapeMode.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`mode must be one of ${ScrapeMode.options.join(', ')}`);
  return parsed.data;
}
