import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_REPORT_URL_PATTERN } from '../events/schema.ts';

/**
 * The service configuration, declared once. Every leaf carries its documentation (and, for
 * secrets, the conventional environment names) in `settingInfo`; the loader, the env mapping,
 * `describeConfig` and the pino redaction paths are all derived from this one declaration.
 *
 * JSON keys are camelCase; the environment name of a leaf is `CI_DIAGNOSIS_` + its path in
 * SCREAMING_SNAKE (`server.publicBaseUrl` → `CI_DIAGNOSIS_SERVER_PUBLIC_BASE_URL`).
 */

export interface SettingInfo {
  /** One line for the documentation and `describeConfig`. */
  doc: string;
  /** Read only from the environment (or a `*_FILE` variable); refused in config files, redacted in logs. */
  secret?: true;
  /** Conventional environment names also accepted (e.g. `GERRIT_PASSWORD`). */
  aliases?: readonly string[];
}

export const settingInfo = z.registry<SettingInfo>();

function setting<T extends z.ZodType>(schema: T, info: SettingInfo): T {
  settingInfo.add(schema, info);
  return schema;
}

function httpUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'expected an absolute http(s) URL such as https://review.example.com/';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `expected http or https, got ${url.protocol}`;
  if (url.username !== '' || url.password !== '') {
    return 'must not carry credentials (user:password@): give them through the environment';
  }
  if (url.search !== '' || url.hash !== '') return 'must not have a query or fragment';
  return null;
}

/** An http(s) base URL without credentials, query or fragment; normalised to end with `/`. */
const BaseUrl = z
  .string()
  .trim()
  .superRefine((text, ctx) => {
    const problem = httpUrlProblem(text);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => (text.endsWith('/') ? text : `${text}/`));

/** `10.0.0.0/8`, `fd00::/8`, or a single address (a /32 or /128). */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = text.split('/');
  if (extra !== undefined) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

const Cidr = z
  .string()
  .trim()
  .refine(
    (text) => parseCidr(text) !== null,
    'expected an IP address or CIDR such as 10.0.0.0/8 or fd00::/8',
  );

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

const Name = z.string().trim().min(1);
const Millis = z.number().int().nonnegative();
const Count = z.number().int().positive();

const Server = z.strictObject({
  host: setting(Name.default('127.0.0.1'), {
    doc: 'Address to listen on (0.0.0.0 in a container).',
  }),
  port: setting(z.number().int().min(0).max(65_535).default(8787), {
    doc: 'TCP port to listen on (0 picks a free one).',
  }),
  publicBaseUrl: setting(BaseUrl.nullable().default(null), {
    doc: 'Base URL people reach the service by, for the report-page links in Gerrit comments; default http://<host>:<port>/.',
  }),
  trustProxy: setting(z.boolean().default(false), {
    doc: 'Behind a reverse proxy: take the client address (for the webhook allow-list) from X-Forwarded-For.',
  }),
  maxQueueDepth: setting(Count.default(100), {
    doc: 'Runs waiting at most; beyond it POST /api/runs answers 429 with Retry-After.',
  }),
  shutdownGraceMs: setting(Millis.default(30_000), {
    doc: 'On SIGTERM, how long running stages may finish before the process exits.',
  }),
});

const Log = z.strictObject({
  level: setting(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), {
    doc: 'pino log level.',
    aliases: ['LOG_LEVEL'],
  }),
});

const Events = z.strictObject({
  ciAccounts: setting(z.array(Name).default([]), {
    doc: 'CI accounts (username or email) whose negative Verified vote starts a diagnosis; comma-separated in the environment.',
  }),
  selfAccount: setting(Name.nullable().default(null), {
    doc: "The service's own Gerrit account, never a trigger; default gerrit.username.",
  }),
  verifiedLabel: setting(Name.default('Verified'), {
    doc: 'The label CI votes on.',
  }),
  retryCommand: setting(Name.default('ci-diagnosis: retry'), {
    doc: 'A line of a human comment that asks for a new diagnosis.',
  }),
  reportUrlPattern: setting(
    z.string().min(1).refine(compiles, 'not a valid regular expression').default(DEFAULT_REPORT_URL_PATTERN),
    { doc: "Regex (flag i) finding the report URL in the CI's comment; group 1 if it has one." },
  ),
  projects: setting(z.array(Name).nullable().default(null), {
    doc: 'Only these projects (null: all).',
  }),
  branches: setting(z.array(Name).nullable().default(null), {
    doc: 'Only these branches, as main or refs/heads/main (null: all).',
  }),
});

const Gerrit = z.strictObject({
  baseUrl: setting(BaseUrl.nullable().default(null), {
    doc: 'Gerrit URL the service calls (REST, git fetch); null: nothing is posted.',
  }),
  webUrl: setting(BaseUrl.nullable().default(null), {
    doc: "Gerrit URL people's browsers reach, for links on the report page; default gerrit.baseUrl.",
  }),
  username: setting(Name.nullable().default(null), {
    doc: 'Account the service posts as (HTTP basic auth).',
    aliases: ['GERRIT_USERNAME'],
  }),
  password: setting(z.string().min(1).nullable().default(null), {
    doc: "That account's HTTP password.",
    secret: true,
    aliases: ['GERRIT_PASSWORD'],
  }),
  requestTimeoutMs: setting(Count.default(30_000), {
    doc: 'Per Gerrit request attempt.',
  }),
  retries: setting(z.number().int().min(0).max(10).default(3), {
    doc: 'Retries of a Gerrit request on 5xx, 429 and connection errors.',
  }),
  notify: setting(z.enum(['NONE', 'OWNER', 'OWNER_REVIEWERS', 'ALL']).default('NONE'), {
    doc: 'Who Gerrit emails about a posted review.',
  }),
  tag: setting(
    z
      .string()
      .regex(/^autogenerated:[A-Za-z0-9._-]+$/, 'expected autogenerated:<name>')
      .default('autogenerated:ci-diagnosis'),
    { doc: 'Review tag; autogenerated: lets the UI hide bot messages.' },
  ),
  fixSuggestions: setting(z.boolean().default(true), {
    doc: 'Attach verified fixes as fix suggestions (Gerrit 3.10 needs the experiment flag).',
  }),
  webhookSecret: setting(
    z.string().min(16, 'must be at least 16 characters (e.g. openssl rand -hex 32)').nullable().default(null),
    {
      doc: 'Shared secret the webhook URL carries (?secret=…).',
      secret: true,
    },
  ),
  webhookAllowedCidrs: setting(z.array(Cidr).default([]), {
    doc: 'Source addresses allowed to call the webhook without the secret; comma-separated in the environment.',
  }),
  events: Events.prefault({}),
});

const Budget = (defaults: { toolCalls: number; tokens: number; wallMs: number }, what: string) =>
  z.strictObject({
    toolCalls: setting(z.number().int().nonnegative().default(defaults.toolCalls), {
      doc: `Read-tool calls per ${what}.`,
    }),
    tokens: setting(Count.default(defaults.tokens), {
      doc: `Tokens per ${what}.`,
    }),
    wallMs: setting(Count.default(defaults.wallMs), {
      doc: `Wall time per ${what}.`,
    }),
  });

const Model = z.strictObject({
  provider: setting(z.enum(['anthropic']).default('anthropic'), {
    doc: 'Model provider.',
  }),
  engine: setting(z.enum(['auto', 'rules', 'claude']).default('auto'), {
    doc: 'auto: the model when an API key is set, the built-in rules otherwise.',
  }),
  name: setting(Name.default('claude-sonnet-4-5'), {
    doc: 'Model name.',
    aliases: ['CI_DIAGNOSIS_MODEL'],
  }),
  baseUrl: setting(BaseUrl.nullable().default(null), {
    doc: 'API base URL (a proxy or gateway); null: the provider default.',
    aliases: ['ANTHROPIC_BASE_URL'],
  }),
  apiKey: setting(z.string().min(1).nullable().default(null), {
    doc: 'API key.',
    secret: true,
    aliases: ['ANTHROPIC_API_KEY'],
  }),
  concurrency: setting(Count.default(2), {
    doc: 'Model calls (failures diagnosed) at once per run.',
  }),
  budget: Budget({ toolCalls: 20, tokens: 200_000, wallMs: 180_000 }, 'failure').prefault({}),
  repairBudget: Budget({ toolCalls: 8, tokens: 60_000, wallMs: 60_000 }, 'repair attempt').prefault({}),
  runTokens: setting(Count.default(2_000_000), {
    doc: "Tokens for one run's failures together; the rules engine takes the rest.",
  }),
});

const Storage = z.strictObject({
  dataDir: setting(Name.default('var'), {
    doc: 'Folder for the SQLite files, evidence and git mirrors (relative: to the working directory).',
  }),
});

const Scraper = z.strictObject({
  concurrency: setting(Count.default(4), {
    doc: 'Browser pages or report requests at once.',
  }),
  pageTimeoutMs: setting(Count.default(20_000), {
    doc: 'Per page load or request.',
  }),
  pageRetries: setting(z.number().int().min(0).max(5).default(1), {
    doc: 'Retries of a page that timed out.',
  }),
  chromiumPath: setting(Name.default('/usr/bin/chromium'), {
    doc: "Chromium executable (Debian's chromium package).",
    aliases: ['CHROMIUM_PATH'],
  }),
});

const Review = z.strictObject({
  maxMessageBytes: setting(z.number().int().min(2_000).max(16_000).default(12_000), {
    doc: 'Bytes of the summary message.',
  }),
  maxCommentBytes: setting(z.number().int().min(500).max(16_000).default(4_000), {
    doc: 'Bytes of one inline or file comment.',
  }),
  maxComments: setting(z.number().int().nonnegative().max(200).default(20), {
    doc: 'Inline and file comments per post.',
  }),
  maxFailuresInSummary: setting(z.number().int().positive().max(100).default(10), {
    doc: 'Failures spelled out in the summary; the rest are left to the page.',
  }),
});

const Limits = z.strictObject({
  concurrentRuns: setting(Count.default(2), {
    doc: 'Runs worked on at once.',
  }),
  gitConcurrency: setting(Count.default(2), {
    doc: 'Git clones and fetches at once, across all runs (apart from browser pages and model calls).',
  }),
  requestBodyBytes: setting(Count.default(1_048_576), {
    doc: 'Largest JSON request body (API and webhook).',
  }),
  evidenceBytes: setting(Count.default(10_485_760), {
    doc: 'Largest piece of evidence QA may upload.',
  }),
  review: Review.prefault({}),
});

/** The shape as written; `ConfigSchema` adds the cross-field checks and derived defaults. */
export const RawConfigSchema = z.strictObject({
  server: Server.prefault({}),
  log: Log.prefault({}),
  gerrit: Gerrit.prefault({}),
  model: Model.prefault({}),
  storage: Storage.prefault({}),
  scraper: Scraper.prefault({}),
  limits: Limits.prefault({}),
});
export type RawConfig = z.output<typeof RawConfigSchema>;

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return isIP(host) === 6 ? `[${host}]` : host;
}

export const ConfigSchema = RawConfigSchema.superRefine((config, ctx) => {
  const { gerrit, model } = config;
  if (gerrit.baseUrl !== null) {
    for (const key of ['username', 'password'] as const) {
      if (gerrit[key] === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['gerrit', key],
          message: 'required when gerrit.baseUrl is set',
        });
      }
    }
  }
  const webhook = gerrit.webhookSecret !== null || gerrit.webhookAllowedCidrs.length > 0;
  if (webhook && gerrit.events.ciAccounts.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['gerrit', 'events', 'ciAccounts'],
      message: 'the webhook is enabled (a secret or allowed CIDRs are set) but names no CI account',
    });
  }
  if (webhook && gerrit.events.selfAccount === null && gerrit.username === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['gerrit', 'events', 'selfAccount'],
      message: "the webhook needs the service's own account (or gerrit.username) so it never triggers itself",
    });
  }
  if (model.engine === 'claude' && model.apiKey === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['model', 'apiKey'],
      message: 'required when model.engine is claude',
    });
  }
}).transform((config) => ({
  ...config,
  server: {
    ...config.server,
    publicBaseUrl:
      config.server.publicBaseUrl ?? `http://${hostForUrl(config.server.host)}:${config.server.port}/`,
  },
  gerrit: {
    ...config.gerrit,
    webUrl: config.gerrit.webUrl ?? config.gerrit.baseUrl,
    events: {
      ...config.gerrit.events,
      selfAccount: config.gerrit.events.selfAccount ?? config.gerrit.username,
    },
  },
}));

/** The validated, effective configuration. `storage.dataDir` is absolute. */
export type ServiceConfig = z.output<typeof ConfigSchema>;
