import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../errors/index.ts';
import type { Mask } from './signature.ts';

export const DEFAULT_SIGNALS_CONFIG = fileURLToPath(new URL('../../config/signals.json', import.meta.url));

export const MaskEntry = z.strictObject({
  pattern: z.string().min(1),
  replace: z.string(),
  /** Regex flags besides `g`, which is always added. */
  flags: z
    .string()
    .regex(/^[imsu]*$/, 'only the flags i, m, s, u')
    .optional(),
});
export type MaskEntry = z.infer<typeof MaskEntry>;

/** config/signals.json: extra signature masks, for every project and per Gerrit project. */
export const SignalsConfigFile = z.strictObject({
  $comment: z.string().optional(),
  masks: z.array(MaskEntry).default([]),
  projects: z
    .record(z.string().min(1), z.strictObject({ masks: z.array(MaskEntry).default([]) }))
    .default({}),
});
export type SignalsConfigFile = z.input<typeof SignalsConfigFile>;

export interface SignalsConfig {
  masks: readonly Mask[];
  projects: ReadonlyMap<string, readonly Mask[]>;
}

export const EMPTY_SIGNALS_CONFIG: SignalsConfig = { masks: [], projects: new Map() };

/** Reads and checks the file; errors name the file and the entry at fault. */
export async function loadSignalsConfig(path: string = DEFAULT_SIGNALS_CONFIG): Promise<SignalsConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err: unknown) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `signals config ${path} could not be read: ${describeError(err)}`,
      {
        input: path,
        cause: err,
      },
    );
  }
  return parseSignalsConfig(raw, path);
}

export function parseSignalsConfig(raw: unknown, where = 'signals config'): SignalsConfig {
  const parsed = SignalsConfigFile.safeParse(raw);
  if (!parsed.success) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `signals config ${where} is invalid: ${z.prettifyError(parsed.error)}`,
      {
        input: where,
      },
    );
  }
  const projects = new Map<string, readonly Mask[]>();
  for (const [name, project] of Object.entries(parsed.data.projects)) {
    projects.set(name, compileMasks(project.masks, `${where}: projects.${JSON.stringify(name)}.masks`));
  }
  return { masks: compileMasks(parsed.data.masks, `${where}: masks`), projects };
}

/** A project's masks first (they know its shapes), then the ones for every project. */
export function masksFor(config: SignalsConfig, project: string | null): readonly Mask[] {
  const own = project === null ? undefined : config.projects.get(project);
  return own === undefined ? config.masks : [...own, ...config.masks];
}

export function compileMasks(entries: readonly MaskEntry[], where: string): Mask[] {
  return entries.map((entry, i) => compileMask(entry, `${where}[${i}]`));
}

function compileMask(entry: MaskEntry, where: string): Mask {
  let pattern: RegExp;
  try {
    pattern = new RegExp(entry.pattern, `g${entry.flags ?? ''}`);
  } catch (err: unknown) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `${where}: pattern ${JSON.stringify(entry.pattern)} is not a valid regex (${describeError(err)})`,
      { input: where },
    );
  }
  // A pattern matching nothing-at-all would insert its replacement between every character.
  if (new RegExp(pattern.source, pattern.flags.replace('g', '')).test('')) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `${where}: pattern ${JSON.stringify(entry.pattern)} matches the empty string`,
      { input: where },
    );
  }
  return { pattern, replace: entry.replace };
}
