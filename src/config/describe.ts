import { describeSource, type LoadedConfig } from './load.ts';
import type { ServiceConfig } from './schema.ts';
import { SETTINGS } from './settings.ts';

export const REDACTED = '[redacted]';

const SECRET_SETTINGS = SETTINGS.filter((s) => s.secret);

/**
 * pino `redact.paths` that hide every configured secret wherever a log line may carry one: the
 * config object itself (`config`, a section, or nested one level down), the secrets' own key
 * names, credentials in headers, and a `secret` query parameter object.
 */
export const redactionPaths: readonly string[] = [
  ...new Set([
    ...SECRET_SETTINGS.flatMap((s) => {
      const key = s.path.split('.').at(-1) as string;
      const inSection = s.path.split('.').slice(1).join('.');
      return [s.path, `config.${s.path}`, `*.${s.path}`, inSection, `*.${inSection}`, key, `*.${key}`];
    }),
    'password',
    '*.password',
    'token',
    '*.token',
    'secret',
    '*.secret',
    '*.apiKey',
    '*.authorization',
    'headers.authorization',
    '*.headers.authorization',
    'headers["x-api-key"]',
    '*.headers["x-api-key"]',
  ]),
];

function valueAt(config: ServiceConfig, path: string): unknown {
  let node: unknown = config;
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  return node;
}

/**
 * The effective configuration, one setting a line with where its value came from; secrets show
 * as `[redacted]` (or `(not set)`), never their value. For `ci-diagnosis serve` to print at start.
 */
export function describeConfig(loaded: LoadedConfig): string {
  const lines = SETTINGS.map((s) => {
    const value = valueAt(loaded.config, s.path);
    const shown = value === null ? '(not set)' : s.secret ? REDACTED : JSON.stringify(value);
    const source = loaded.sources[s.path];
    return `${s.path} = ${shown}${source ? `  # ${describeSource(source)}` : ''}`;
  });
  const files = loaded.files.length > 0 ? loaded.files.join(', ') : 'none';
  return [`# configuration files: ${files}`, ...lines].join('\n');
}

/** The configured secret values, for `maskSecrets`. */
export function secretValues(config: ServiceConfig): string[] {
  return SECRET_SETTINGS.map((s) => valueAt(config, s.path)).filter(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
}

/** Replaces every configured secret value in free text (an error message, a URL) with `[redacted]`. */
export function maskSecrets(text: string, config: ServiceConfig): string {
  let out = text;
  for (const secret of secretValues(config).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return out;
}

/** `…/hooks/gerrit?secret=abc` → `…/hooks/gerrit?secret=[redacted]` (also token, password, key). */
export function redactUrlQuery(url: string): string {
  return url.replace(/([?&](?:secret|token|password|api_?key|key)=)[^&#]*/gi, `$1${REDACTED}`);
}
