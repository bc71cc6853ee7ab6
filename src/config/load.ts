import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closest } from 'fastest-levenshtein';
import type { z } from 'zod';
import { DiagnosisError, describeError } from '../errors/index.ts';
import { ConfigSchema, type ServiceConfig } from './schema.ts';
import {
  CONFIG_FILE_ENV,
  ENV_PREFIX,
  knownEnvNames,
  SECTIONS,
  SETTINGS,
  SETTINGS_BY_PATH,
  type Setting,
} from './settings.ts';

/** The process environment, or a test's own. Empty strings count as unset. */
export type Env = Readonly<Record<string, string | undefined>>;
/** Reads a whole UTF-8 file; throws (e.g. ENOENT) when it cannot. */
export type ReadFile = (path: string) => string;

export const nodeReadFile: ReadFile = (path) => readFileSync(path, 'utf8');

/** `config/default.json` of this package, wherever the process was started. */
export const DEFAULT_CONFIG_PATH = fileURLToPath(new URL('../../config/default.json', import.meta.url));

/** Where a setting's value came from. */
export type ConfigSource =
  | { kind: 'default' }
  | { kind: 'file'; path: string }
  | { kind: 'env'; name: string }
  | { kind: 'env-file'; name: string; path: string }
  | { kind: 'derived'; from: string };

export interface ConfigProblem {
  /** Dotted setting path (or the environment name when it maps to no setting). */
  key: string;
  source: ConfigSource | null;
  message: string;
}

export class ConfigError extends DiagnosisError {
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    const lines = problems.map(
      (p) => `  - ${p.key}${p.source ? ` (${describeSource(p.source)})` : ''}: ${p.message}`,
    );
    super(
      'INVALID_ARGUMENT',
      `invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`,
      { input: problems[0]?.key },
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export interface LoadOptions {
  /** Resolves a relative `CI_DIAGNOSIS_CONFIG` and `storage.dataDir`; default `process.cwd()`. */
  cwd?: string;
  /** The defaults file; null to start from the built-in defaults alone. */
  defaultsPath?: string | null;
}

export interface LoadedConfig {
  config: ServiceConfig;
  /** Per setting path, where its effective value came from. */
  sources: Readonly<Record<string, ConfigSource>>;
  /** The config files read, in order. */
  files: readonly string[];
}

export function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'default':
      return 'built-in default';
    case 'file':
      return `file ${source.path}`;
    case 'env':
      return `env ${source.name}`;
    case 'env-file':
      return `file ${source.path} from env ${source.name}`;
    case 'derived':
      return `derived from ${source.from}`;
  }
}

interface Layering {
  values: Map<string, unknown>;
  sources: Map<string, ConfigSource>;
  problems: ConfigProblem[];
}

function set(state: Layering, path: string, value: unknown, source: ConfigSource): void {
  state.values.set(path, value);
  state.sources.set(path, source);
}

function suggestion(key: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  return `; did you mean ${closest(key, [...candidates])}?`;
}

function secretEnvHint(s: Setting): string {
  const direct = [...s.aliases, s.env];
  return `set ${direct.join(' or ')} (or ${direct.map((n) => `${n}_FILE`).join(' / ')} naming a file)`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lays one JSON file over the values so far: known leaves only, no secrets. */
function applyFile(state: Layering, data: unknown, path: string): void {
  const source: ConfigSource = { kind: 'file', path };
  if (!isPlainObject(data)) {
    state.problems.push({ key: '(file)', source, message: 'expected a JSON object' });
    return;
  }
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('$')) continue; // $comment, $schema
      const dotted = prefix === '' ? key : `${prefix}.${key}`;
      const leaf = SETTINGS_BY_PATH.get(dotted);
      if (leaf?.secret) {
        state.problems.push({
          key: dotted,
          source,
          message: `secrets are not read from config files: remove it and ${secretEnvHint(leaf)}`,
        });
      } else if (leaf !== undefined) {
        set(state, dotted, value, source);
      } else if (SECTIONS.has(dotted)) {
        if (isPlainObject(value)) walk(value, dotted);
        else state.problems.push({ key: dotted, source, message: 'expected an object (a section)' });
      } else {
        const siblings = [...SETTINGS.map((s) => s.path), ...SECTIONS].filter(
          (p) =>
            p.startsWith(prefix === '' ? '' : `${prefix}.`) &&
            p.split('.').length === dotted.split('.').length,
        );
        state.problems.push({
          key: dotted,
          source,
          message: `unknown setting${suggestion(dotted, siblings)}`,
        });
      }
    }
  };
  walk(data, '');
}

function readConfigFile(
  state: Layering,
  readFile: ReadFile,
  path: string,
  named: ConfigSource | null,
): unknown | undefined {
  let text: string;
  try {
    text = readFile(path);
  } catch (err: unknown) {
    state.problems.push({
      key: named?.kind === 'env' ? named.name : '(defaults)',
      source: named,
      message: `cannot read config file ${path}: ${describeError(err)}`,
    });
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err: unknown) {
    state.problems.push({
      key: '(file)',
      source: { kind: 'file', path },
      message: `not valid JSON: ${describeError(err)}`,
    });
    return undefined;
  }
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** An environment string as the setting's kind; a message when it does not read as one. */
function fromEnv(s: Setting, raw: string): { value: unknown } | { problem: string } {
  const text = s.kind === 'string' && s.secret ? raw : raw.trim();
  switch (s.kind) {
    case 'number':
      if (!/^-?\d+$/.test(text)) return { problem: 'expected a whole number' };
      return { value: Number(text) };
    case 'boolean':
      if (TRUE.has(text.toLowerCase())) return { value: true };
      if (FALSE.has(text.toLowerCase())) return { value: false };
      return { problem: 'expected true or false' };
    case 'list':
      return {
        value: text
          .split(/[,\s]+/)
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      };
    case 'string':
      return { value: text };
  }
}

function isSet(env: Env, name: string): boolean {
  const value = env[name];
  return value !== undefined && value !== '';
}

/** Secret files end with a newline more often than not; the value is the content without it. */
function secretFromFile(content: string): string {
  return content.replace(/\r?\n$/, '');
}

function applyEnv(state: Layering, env: Env, readFile: ReadFile): void {
  for (const s of SETTINGS) {
    const given = s.envNames.filter((name) => isSet(env, name));
    if (given.length === 0) continue;
    const files = given.filter((name) => name.endsWith('_FILE') && s.secret);
    const direct = given.filter((name) => !files.includes(name));
    const distinct = new Set(direct.map((name) => env[name]));
    if (files.length > 1 || (files.length === 1 && direct.length > 0) || distinct.size > 1) {
      state.problems.push({
        key: s.path,
        source: null,
        message: `set by ${given.join(' and ')}${s.secret ? '' : ' with different values'}: keep one`,
      });
      continue;
    }
    const fileVar = files[0];
    if (fileVar !== undefined) {
      const path = env[fileVar] as string;
      const source: ConfigSource = { kind: 'env-file', name: fileVar, path };
      let content: string;
      try {
        content = secretFromFile(readFile(path));
      } catch (err: unknown) {
        state.problems.push({ key: s.path, source, message: `cannot read the file: ${describeError(err)}` });
        continue;
      }
      if (content.trim() === '') {
        state.problems.push({ key: s.path, source, message: 'the file is empty' });
        continue;
      }
      set(state, s.path, content, source);
      continue;
    }
    const name = direct[0] as string;
    const parsed = fromEnv(s, env[name] as string);
    const source: ConfigSource = { kind: 'env', name };
    if ('problem' in parsed) {
      state.problems.push({
        key: s.path,
        source,
        message: `${parsed.problem}, got ${JSON.stringify(env[name])}`,
      });
    } else {
      set(state, s.path, parsed.value, source);
    }
  }
  const known = knownEnvNames();
  const unknown = Object.keys(env).filter(
    (name) => name.startsWith(ENV_PREFIX) && !known.has(name) && isSet(env, name),
  );
  for (const name of unknown) {
    state.problems.push({
      key: name,
      source: { kind: 'env', name },
      message: `not a setting${suggestion(name, [...known])}`,
    });
  }
}

function nest(values: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of values) {
    const parts = path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1] as string] = value;
  }
  return root;
}

/** The setting an issue path points into (issues inside a list point at an item). */
function leafOf(path: readonly PropertyKey[]): string {
  const parts = path.map(String);
  for (let n = parts.length; n > 0; n--) {
    const candidate = parts.slice(0, n).join('.');
    if (SETTINGS_BY_PATH.has(candidate)) return candidate;
  }
  return parts.join('.') || '(root)';
}

function hint(path: string, value: unknown): string {
  const s = SETTINGS_BY_PATH.get(path);
  const unset = value === undefined || value === null || (Array.isArray(value) && value.length === 0);
  if (s === undefined || !unset) return '';
  const aliases = s.aliases.length > 0 ? ` (or ${s.aliases.join(', ')})` : '';
  return s.secret ? `; ${secretEnvHint(s)}` : `; set ${s.env}${aliases}`;
}

function issueProblem(issue: z.core.$ZodIssue, state: Layering): ConfigProblem {
  const key = leafOf(issue.path);
  const item = issue.path.length > key.split('.').length ? ` (item ${String(issue.path.at(-1))})` : '';
  // zod's messages do not quote the value, so a secret never ends up in one.
  return {
    key,
    source: state.sources.get(key) ?? null,
    message: `${issue.message}${item}${hint(key, state.values.get(key))}`,
  };
}

function readFiles(state: Layering, env: Env, readFile: ReadFile, cwd: string, defaultsPath: string | null) {
  const files: string[] = [];
  if (defaultsPath !== null) {
    const data = readConfigFile(state, readFile, defaultsPath, null);
    if (data !== undefined) {
      applyFile(state, data, defaultsPath);
      files.push(defaultsPath);
    }
  }
  const named = env[CONFIG_FILE_ENV];
  if (named !== undefined && named !== '') {
    const path = isAbsolute(named) ? named : resolve(cwd, named);
    const data = readConfigFile(state, readFile, path, { kind: 'env', name: CONFIG_FILE_ENV });
    if (data !== undefined) {
      applyFile(state, data, path);
      files.push(path);
    }
  }
  return files;
}

/**
 * The service configuration: `config/default.json`, then the file named by `CI_DIAGNOSIS_CONFIG`,
 * then the environment, validated once. Throws a `ConfigError` listing every problem with the
 * setting and where its value came from. Pure: the environment and file reader are parameters.
 */
export function loadConfig(env: Env, readFile: ReadFile, options: LoadOptions = {}): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const defaultsPath = options.defaultsPath === undefined ? DEFAULT_CONFIG_PATH : options.defaultsPath;
  const state: Layering = { values: new Map(), sources: new Map(), problems: [] };

  const files = readFiles(state, env, readFile, cwd, defaultsPath);
  applyEnv(state, env, readFile);

  const result = ConfigSchema.safeParse(nest(state.values));
  const problems = [...state.problems];
  if (!result.success) {
    const reported = new Set(problems.map((p) => p.key));
    for (const issue of result.error.issues) {
      const problem = issueProblem(issue, state);
      if (!reported.has(problem.key)) problems.push(problem);
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);

  const config = result.data;
  config.storage.dataDir = resolve(cwd, config.storage.dataDir);

  const sources: Record<string, ConfigSource> = {};
  for (const s of SETTINGS) sources[s.path] = state.sources.get(s.path) ?? { kind: 'default' };
  if (state.values.get('server.publicBaseUrl') == null) {
    sources['server.publicBaseUrl'] = { kind: 'derived', from: 'server.host and server.port' };
  }
  if (state.values.get('gerrit.webUrl') == null && config.gerrit.webUrl !== null) {
    sources['gerrit.webUrl'] = { kind: 'derived', from: 'gerrit.baseUrl' };
  }
  if (state.values.get('gerrit.events.selfAccount') == null && config.gerrit.events.selfAccount !== null) {
    sources['gerrit.events.selfAccount'] = { kind: 'derived', from: 'gerrit.username' };
  }
  return { config, sources, files };
}
