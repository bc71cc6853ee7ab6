import { z } from 'zod';
import { RawConfigSchema, type SettingInfo, settingInfo } from './schema.ts';

/** How an environment string becomes a value. */
export type SettingKind = 'string' | 'number' | 'boolean' | 'list';

/** One leaf of the configuration, with everything derived from its declaration. */
export interface Setting extends SettingInfo {
  /** Dotted path, e.g. `server.publicBaseUrl`. */
  path: string;
  kind: SettingKind;
  /** `CI_DIAGNOSIS_SERVER_PUBLIC_BASE_URL`. */
  env: string;
  /** Every environment name that sets it: `env`, the aliases, and `<name>_FILE` for secrets. */
  envNames: string[];
  /** The built-in default. */
  default: unknown;
  aliases: readonly string[];
}

/** Names the loader reads besides the settings themselves. */
export const CONFIG_FILE_ENV = 'CI_DIAGNOSIS_CONFIG';
/** Test-only: the stage after which `serve` kills itself (read and checked by src/service/worker.ts). */
export const CRASH_AFTER_ENV = 'CI_DIAGNOSIS_CRASH_AFTER';
export const ENV_PREFIX = 'CI_DIAGNOSIS_';

function snake(segment: string): string {
  return segment.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

export function envNameOf(path: string): string {
  return ENV_PREFIX + path.split('.').map(snake).join('_');
}

/** Strips defaults, nullables, optionals and pipes down to the type the value is written in. */
function baseOf(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (;;) {
    if (
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodOptional
    ) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = current.in as z.ZodType;
    } else {
      return current;
    }
  }
}

function kindOf(base: z.ZodType): SettingKind {
  if (base instanceof z.ZodNumber) return 'number';
  if (base instanceof z.ZodBoolean) return 'boolean';
  if (base instanceof z.ZodArray) return 'list';
  return 'string';
}

function collect(schema: z.ZodObject, prefix: string, defaults: unknown, out: Setting[]): void {
  for (const [key, field] of Object.entries(schema.shape)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const fieldDefault = (defaults as Record<string, unknown>)[key];
    const base = baseOf(field as z.ZodType);
    const info = settingInfo.get(field as z.ZodType);
    if (info === undefined) {
      if (!(base instanceof z.ZodObject)) throw new Error(`config leaf ${path} has no setting info`);
      collect(base, path, fieldDefault, out);
      continue;
    }
    const env = envNameOf(path);
    const aliases = info.aliases ?? [];
    const direct = [env, ...aliases];
    out.push({
      ...info,
      path,
      kind: kindOf(base),
      env,
      aliases,
      envNames: info.secret ? [...direct, ...direct.map((name) => `${name}_FILE`)] : direct,
      default: fieldDefault,
    });
  }
}

function buildSettings(): Setting[] {
  const out: Setting[] = [];
  collect(RawConfigSchema, '', RawConfigSchema.parse({}), out);
  return out;
}

/** Every leaf, in declaration order. */
export const SETTINGS: readonly Setting[] = buildSettings();
export const SETTINGS_BY_PATH: ReadonlyMap<string, Setting> = new Map(SETTINGS.map((s) => [s.path, s]));

/** Dotted paths of the sections (objects) between the root and the leaves. */
export const SECTIONS: ReadonlySet<string> = new Set(
  SETTINGS.flatMap((s) => {
    const parts = s.path.split('.');
    return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('.'));
  }),
);

/** Every environment name the loader understands. */
export function knownEnvNames(): Set<string> {
  return new Set([CONFIG_FILE_ENV, CRASH_AFTER_ENV, ...SETTINGS.flatMap((s) => s.envNames)]);
}

/** The env mapping as a Markdown table (what docs/containers.md shows). */
export function envTable(): string {
  const rows = SETTINGS.map((s) => {
    const names = s.secret
      ? [s.env, `${s.env}_FILE`, ...s.aliases.flatMap((a) => [a, `${a}_FILE`])]
      : [s.env, ...s.aliases];
    const def = s.secret ? '—' : `\`${JSON.stringify(s.default)}\``;
    return `| \`${s.path}\` | ${names.map((n) => `\`${n}\``).join(', ')} | ${def} | ${s.secret ? '**secret** — ' : ''}${s.doc.replaceAll('|', '\\|')} |`;
  });
  return ['| setting | environment | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
