import { readFile } from 'node:fs/promises';
import picomatch from 'picomatch';
import { z } from 'zod';
import { DiagnosisError, describeError } from '../errors/index.ts';
import type { DiagnosisDraft } from '../schemas/index.ts';

export const DEFAULT_MODULES_PATH = new URL('../../config/modules.json', import.meta.url).pathname;

/** `config/modules.json`: named modules by path globs; files no module claims fall back to directory conventions. */
export const ModuleMapFile = z.object({
  modules: z.array(z.object({ name: z.string().min(1), paths: z.array(z.string().min(1)).min(1) })),
});

export interface ModuleMap {
  moduleOf(path: string): string;
}

/** Source roots that are not modules themselves: the module is the folder below them. */
const ROOTS = new Set([
  'src',
  'lib',
  'pkg',
  'internal',
  'app',
  'packages',
  'services',
  'cmd',
  'api',
  'main',
  'java',
  'kotlin',
  'python',
  'go',
]);

export function moduleMap(file: z.infer<typeof ModuleMapFile>): ModuleMap {
  const matchers = file.modules.map((m) => ({ name: m.name, match: picomatch(m.paths) }));
  return { moduleOf: (path) => matchers.find((m) => m.match(path))?.name ?? conventionalModule(path) };
}

/**
 * By convention a module is the first folder that is not a source root (`orders/…` → orders,
 * `src/billing/…` → src/billing, `api/assembler/…` → api/assembler). Tests belong to their own
 * `test` module only when they sit in a top-level test folder.
 */
export function conventionalModule(path: string): string {
  const parts = path.split('/').slice(0, -1);
  const taken: string[] = [];
  for (const part of parts) {
    taken.push(part);
    if (!ROOTS.has(part)) break;
  }
  return taken.length === 0 ? '.' : taken.join('/');
}

export async function loadModuleMap(path = DEFAULT_MODULES_PATH): Promise<ModuleMap> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err: unknown) {
    throw new DiagnosisError('SKILL_INVALID', `module map ${path} could not be read: ${describeError(err)}`, {
      input: path,
      cause: err,
    });
  }
  const parsed = ModuleMapFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DiagnosisError(
      'SKILL_INVALID',
      `module map ${path}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
      { input: path },
    );
  }
  return moduleMap(parsed.data);
}

/** The production modules a draft's causal chain touches (code and diff citations, and the place). */
export function chainModules(
  draft: DiagnosisDraft,
  map: ModuleMap,
  isTest: (path: string) => boolean,
): Map<string, string[]> {
  const files = new Set<string>();
  if (draft.place.file !== null) files.add(draft.place.file);
  for (const claim of draft.why) {
    for (const cite of claim.cites) if (cite.kind === 'code' || cite.kind === 'diff') files.add(cite.file);
  }
  const modules = new Map<string, string[]>();
  for (const file of files) {
    if (isTest(file)) continue;
    const name = map.moduleOf(file);
    modules.set(name, [...(modules.get(name) ?? []), file]);
  }
  return modules;
}
