import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../errors/index.ts';

/** config/path-mapping.json: how build-machine paths map to repository paths. */
export const PathRulesFile = z.object({
  stripPrefixes: z.array(z.string()),
  sourceRoots: z.array(z.string()),
  buildOutputs: z.array(z.object({ from: z.string(), to: z.string() })),
});

export interface PathRules {
  stripPrefixes: RegExp[];
  sourceRoots: string[];
  buildOutputs: Array<{ from: RegExp; to: string }>;
}

export async function loadPathRules(path: string): Promise<PathRules> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err: unknown) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `path rules ${path} could not be read: ${describeError(err)}`,
      {
        input: path,
        cause: err,
      },
    );
  }
  const parsed = PathRulesFile.safeParse(raw);
  if (!parsed.success) {
    throw new DiagnosisError(
      'INVALID_ARGUMENT',
      `path rules ${path} are invalid: ${z.prettifyError(parsed.error)}`,
      {
        input: path,
      },
    );
  }
  return compileRules(parsed.data, path);
}

export function compileRules(rules: z.infer<typeof PathRulesFile>, where = 'path rules'): PathRules {
  const regex = (source: string): RegExp => {
    try {
      return new RegExp(source);
    } catch (err: unknown) {
      throw new DiagnosisError(
        'INVALID_ARGUMENT',
        `${where}: "${source}" is not a valid regex (${describeError(err)})`,
        {
          input: where,
        },
      );
    }
  };
  return {
    stripPrefixes: rules.stripPrefixes.map(regex),
    sourceRoots: rules.sourceRoots.map((r) => r.replace(/\/+$/, '')),
    buildOutputs: rules.buildOutputs.map((b) => ({ from: regex(b.from), to: b.to })),
  };
}
