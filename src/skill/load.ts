import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { STAGE_OUTPUTS } from './schemas.ts';

/** The tools a stage may name; the model's toolset must offer exactly these. */
export const SKILL_TOOLS = [
  'get_issue_facts',
  'read_evidence',
  'read_file',
  'search_code',
  'find_symbol',
  'get_file_diff',
  'list_change_files',
  'submit_diagnosis',
] as const;

export const DEFAULT_SKILL_DIR = new URL('../../skills/test-repair/', import.meta.url).pathname;

const StageHeader = z.object({
  stage: z.string().regex(/^[a-z_]+$/),
  purpose: z.string().min(1),
  inputs: z.array(z.string()),
  tools: z.array(z.enum(SKILL_TOOLS)),
  output: z.enum(Object.keys(STAGE_OUTPUTS) as [keyof typeof STAGE_OUTPUTS]).nullable(),
  exit: z.string().min(1),
});

export interface SkillStage extends z.infer<typeof StageHeader> {
  file: string;
  body: string;
}

export interface Skill {
  stages: SkillStage[];
  /** The static system text for a model: cached across failures and runs. */
  system: string;
}

/** Reads `NN-name.md` stage files in order; a bad header names the file and the field. */
export async function loadSkill(dir = DEFAULT_SKILL_DIR): Promise<Skill> {
  const files = (await readdir(dir)).filter((f) => /^\d\d-[a-z-]+\.md$/.test(f)).sort();
  if (files.length === 0)
    throw new DiagnosisError('SKILL_INVALID', `no stage files in ${dir}`, { input: dir });
  const stages = await Promise.all(
    files.map(async (file) => parseStage(join(dir, file), await readFile(join(dir, file), 'utf8'))),
  );
  return { stages, system: renderSystem(stages) };
}

export function parseStage(file: string, text: string): SkillStage {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (match === null)
    throw new DiagnosisError('SKILL_INVALID', `${file}: no front matter between --- lines`, { input: file });
  let header: unknown;
  try {
    header = parseYaml(match[1] ?? '');
  } catch (err: unknown) {
    throw new DiagnosisError('SKILL_INVALID', `${file}: front matter is not YAML: ${describeError(err)}`, {
      input: file,
      cause: err,
    });
  }
  const parsed = StageHeader.safeParse(header);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DiagnosisError(
      'SKILL_INVALID',
      `${file}: ${issue?.path.join('.') || '(header)'}: ${issue?.message ?? 'invalid'}`,
      {
        input: file,
      },
    );
  }
  return { ...parsed.data, file, body: (match[2] ?? '').trim() };
}

function renderSystem(stages: readonly SkillStage[]): string {
  return stages
    .map((s) => {
      if (s.output === null) return s.body;
      const head = [
        `## Stage: ${s.stage}`,
        `Purpose: ${s.purpose}`,
        `Inputs: ${s.inputs.join(', ')}`,
        `Tools: ${s.tools.join(', ')}`,
        `Output: ${s.output}`,
        `Exit when: ${s.exit}`,
      ];
      return `${head.join('\n')}\n\n${s.body}`;
    })
    .join('\n\n');
}
