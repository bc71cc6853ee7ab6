import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_CONFIG_PATH,
  describeConfig,
  type Env,
  envNameOf,
  eventPolicy,
  gerritConnection,
  knownEnvNames,
  type LoadOptions,
  loadConfig,
  maskSecrets,
  modelSettings,
  publishOptions,
  REDACTED,
  type ReadFile,
  redactionPaths,
  redactUrlQuery,
  SETTINGS,
  secretMatches,
  sourceAllowList,
  storagePaths,
} from '../../src/config/index.ts';
import {
  DEFAULT_BUDGET,
  DEFAULT_MODEL,
  DEFAULT_REPAIR_BUDGET,
  DEFAULT_RUN_TOKENS,
} from '../../src/diagnose/engine-choice.ts';
import { EventPolicy } from '../../src/events/schema.ts';
import { PublishLimits } from '../../src/publish/limits.ts';
import { PublishOptions } from '../../src/publish/review.ts';

const DEFAULTS_TEXT = readFileSync(DEFAULT_CONFIG_PATH, 'utf8');

/** A file reader over an in-memory tree that also serves the real config/default.json. */
function files(tree: Record<string, string> = {}): ReadFile {
  return (path) => {
    if (path in tree) return tree[path] as string;
    if (path === DEFAULT_CONFIG_PATH) return DEFAULTS_TEXT;
    throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: 'ENOENT' });
  };
}

const OPTIONS: LoadOptions = { cwd: '/srv/app' };
const load = (env: Env = {}, tree: Record<string, string> = {}, options: LoadOptions = OPTIONS) =>
  loadConfig(env, files(tree), options);

function problems(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err: unknown) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

/** A working Gerrit wiring: base URL, account, password from a secret file, webhook secret. */
const GERRIT_ENV: Env = {
  CI_DIAGNOSIS_GERRIT_BASE_URL: 'http://gerrit:8080',
  GERRIT_USERNAME: 'ci-diagnosis',
  GERRIT_PASSWORD_FILE: '/run/secrets/gerrit_password',
  CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET: 'w'.repeat(32),
  CI_DIAGNOSIS_GERRIT_EVENTS_CI_ACCOUNTS: 'ci-bot, jenkins@example.com',
  ANTHROPIC_API_KEY: 'sk-ant-test-key-123456',
};
const GERRIT_FILES = { '/run/secrets/gerrit_password': 'hunter2-http-password\n' };

describe('defaults', () => {
  it('starts from config/default.json and needs nothing else', () => {
    const { config, sources, files: read } = load();
    expect(read).toEqual([DEFAULT_CONFIG_PATH]);
    expect(config.server).toEqual({
      host: '127.0.0.1',
      port: 8787,
      publicBaseUrl: 'http://127.0.0.1:8787/',
      trustProxy: false,
      maxQueueDepth: 100,
      shutdownGraceMs: 30_000,
    });
    expect(config.gerrit.baseUrl).toBeNull();
    expect(config.gerrit.password).toBeNull();
    expect(config.model.engine).toBe('auto');
    expect(config.storage.dataDir).toBe('/srv/app/var');
    expect(sources['server.port']).toEqual({ kind: 'file', path: DEFAULT_CONFIG_PATH });
    expect(sources['gerrit.password']).toEqual({ kind: 'default' });
    expect(sources['server.publicBaseUrl']).toEqual({ kind: 'derived', from: 'server.host and server.port' });
    expect(gerritConnection(config)).toBeNull();
    expect(eventPolicy(config)).toBeNull();
    expect(modelSettings(config).engine).toBe('rules');
  });

  it('config/default.json says exactly what the built-in defaults say, for every non-secret setting', () => {
    const fromFile = load().config;
    const builtIn = load({}, {}, { ...OPTIONS, defaultsPath: null }).config;
    expect(fromFile).toEqual(builtIn);
    const json = JSON.parse(DEFAULTS_TEXT);
    for (const s of SETTINGS) {
      const value = s.path
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], json);
      if (s.secret) expect(value, s.path).toBeUndefined();
      else expect(value, s.path).toEqual(s.default);
    }
  });

  it('agrees with the defaults the stages themselves use', () => {
    const { config } = load();
    expect(config.model.name).toBe(DEFAULT_MODEL);
    expect(config.model.budget).toEqual(DEFAULT_BUDGET);
    expect(config.model.repairBudget).toEqual(DEFAULT_REPAIR_BUDGET);
    expect(config.model.runTokens).toBe(DEFAULT_RUN_TOKENS);
    expect(config.limits.review).toEqual(PublishLimits.parse({}));
    expect(publishOptions(config)).toEqual(PublishOptions.parse({}));
    const policy = EventPolicy.parse({ ci_accounts: ['x'], self_account: 'y' });
    expect(config.gerrit.events.verifiedLabel).toBe(policy.verified_label);
    expect(config.gerrit.events.retryCommand).toBe(policy.retry_command);
    expect(config.gerrit.events.reportUrlPattern).toBe(policy.report_url_pattern);
  });

  it('agrees with the scraper defaults', async () => {
    const { DEFAULT_LIMITS } = await import('../../scraper/scrape.ts');
    const { DEFAULT_BROWSER } = await import('../../scraper/browser/session.ts');
    const { config } = load();
    expect(config.scraper.concurrency).toBe(DEFAULT_LIMITS.concurrency);
    expect(config.scraper.pageTimeoutMs).toBe(DEFAULT_LIMITS.pageTimeoutMs);
    expect(config.scraper.pageRetries).toBe(DEFAULT_LIMITS.pageRetries);
    expect(DEFAULT_BROWSER.executablePath).toMatch(/chromium$/);
  });
});

describe('env mapping', () => {
  it('names every setting CI_DIAGNOSIS_<SECTION>_<KEY>, uniquely, and documents it', () => {
    expect(envNameOf('server.publicBaseUrl')).toBe('CI_DIAGNOSIS_SERVER_PUBLIC_BASE_URL');
    expect(envNameOf('gerrit.events.ciAccounts')).toBe('CI_DIAGNOSIS_GERRIT_EVENTS_CI_ACCOUNTS');
    expect(envNameOf('model.budget.wallMs')).toBe('CI_DIAGNOSIS_MODEL_BUDGET_WALL_MS');
    const all = SETTINGS.flatMap((s) => s.envNames);
    expect(new Set(all).size).toBe(all.length);
    for (const s of SETTINGS) expect(s.doc.length, s.path).toBeGreaterThan(5);
    expect(SETTINGS.filter((s) => s.secret).map((s) => s.path)).toEqual([
      'gerrit.password',
      'gerrit.webhookSecret',
      'model.apiKey',
    ]);
    const known = knownEnvNames();
    for (const name of [
      'CI_DIAGNOSIS_CONFIG',
      'GERRIT_USERNAME',
      'GERRIT_PASSWORD',
      'GERRIT_PASSWORD_FILE',
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_API_KEY_FILE',
      'ANTHROPIC_BASE_URL',
      'CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET_FILE',
    ]) {
      expect(known.has(name), name).toBe(true);
    }
    // no *_FILE for settings that are not secret
    expect(known.has('CI_DIAGNOSIS_SERVER_PORT_FILE')).toBe(false);
  });
});

describe('a config file over the defaults', () => {
  const file = JSON.stringify({
    $comment: 'staging',
    server: { port: 9000, publicBaseUrl: 'https://diagnosis.example.com/ci' },
    gerrit: { webhookAllowedCidrs: ['10.0.0.0/8'], events: { ciAccounts: ['ci-bot'], projects: ['a', 'b'] } },
    storage: { dataDir: '/var/lib/ci-diagnosis' },
  });

  it('is named by CI_DIAGNOSIS_CONFIG (relative to the working directory) and merged key by key', () => {
    const {
      config,
      sources,
      files: read,
    } = load(
      { CI_DIAGNOSIS_CONFIG: 'conf/staging.json', GERRIT_USERNAME: 'bot' },
      { '/srv/app/conf/staging.json': file },
    );
    expect(read).toEqual([DEFAULT_CONFIG_PATH, '/srv/app/conf/staging.json']);
    expect(config.server.port).toBe(9000);
    expect(config.server.host).toBe('127.0.0.1'); // sibling kept from the defaults
    expect(config.server.publicBaseUrl).toBe('https://diagnosis.example.com/ci/');
    expect(config.gerrit.events.projects).toEqual(['a', 'b']);
    expect(config.gerrit.events.retryCommand).toBe('ci-diagnosis: retry');
    expect(config.storage.dataDir).toBe('/var/lib/ci-diagnosis');
    expect(sources['server.port']).toEqual({ kind: 'file', path: '/srv/app/conf/staging.json' });
    expect(sources['server.host']).toEqual({ kind: 'file', path: DEFAULT_CONFIG_PATH });
    expect(eventPolicy(config)).toMatchObject({
      ci_accounts: ['ci-bot'],
      self_account: 'bot',
      projects: ['a', 'b'],
    });
  });

  it('can reset a value to null, and the environment still wins over it', () => {
    const reset = JSON.stringify({ server: { publicBaseUrl: null, port: 9100 } });
    const { config, sources } = load(
      { CI_DIAGNOSIS_CONFIG: '/etc/ci.json', CI_DIAGNOSIS_SERVER_PORT: '9200' },
      { '/etc/ci.json': reset },
    );
    expect(config.server.port).toBe(9200);
    expect(config.server.publicBaseUrl).toBe('http://127.0.0.1:9200/');
    expect(sources['server.port']).toEqual({ kind: 'env', name: 'CI_DIAGNOSIS_SERVER_PORT' });
  });
});

describe('the environment over the files', () => {
  it('reads numbers, booleans, lists, enums and URLs from strings', () => {
    const { config, sources } = load({
      CI_DIAGNOSIS_SERVER_HOST: '0.0.0.0',
      CI_DIAGNOSIS_SERVER_PORT: ' 8080 ',
      CI_DIAGNOSIS_SERVER_TRUST_PROXY: 'yes',
      CI_DIAGNOSIS_GERRIT_FIX_SUGGESTIONS: 'false',
      CI_DIAGNOSIS_GERRIT_NOTIFY: 'OWNER',
      CI_DIAGNOSIS_GERRIT_WEBHOOK_ALLOWED_CIDRS: '10.0.0.0/8, 192.168.1.7 fd00::/8',
      CI_DIAGNOSIS_GERRIT_EVENTS_CI_ACCOUNTS: 'ci-bot,jenkins',
      CI_DIAGNOSIS_GERRIT_EVENTS_SELF_ACCOUNT: 'diagnosis-bot',
      CI_DIAGNOSIS_MODEL_BUDGET_TOKENS: '50000',
      CI_DIAGNOSIS_LIMITS_REVIEW_MAX_COMMENTS: '5',
      CI_DIAGNOSIS_STORAGE_DATA_DIR: 'data',
    });
    expect(config.server.host).toBe('0.0.0.0');
    expect(config.server.port).toBe(8080);
    expect(config.server.publicBaseUrl).toBe('http://127.0.0.1:8080/');
    expect(config.server.trustProxy).toBe(true);
    expect(config.gerrit.fixSuggestions).toBe(false);
    expect(config.gerrit.notify).toBe('OWNER');
    expect(config.gerrit.webhookAllowedCidrs).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    expect(config.gerrit.events.ciAccounts).toEqual(['ci-bot', 'jenkins']);
    expect(config.model.budget).toEqual({ ...DEFAULT_BUDGET, tokens: 50_000 });
    expect(config.limits.review.maxComments).toBe(5);
    expect(config.storage.dataDir).toBe('/srv/app/data');
    expect(sources['gerrit.notify']).toEqual({ kind: 'env', name: 'CI_DIAGNOSIS_GERRIT_NOTIFY' });
    expect(publishOptions(config)).toMatchObject({ notify: 'OWNER', fixSuggestions: false });
    expect(PublishOptions.parse(publishOptions(config))).toEqual(publishOptions(config));
  });

  it('limits git clones and fetches by a count of their own', () => {
    expect(load().config.limits.gitConcurrency).toBe(2);
    expect(load({ CI_DIAGNOSIS_LIMITS_GIT_CONCURRENCY: '4' }).config.limits.gitConcurrency).toBe(4);
    const refused = problems(() => load({ CI_DIAGNOSIS_LIMITS_GIT_CONCURRENCY: '0' }));
    expect(refused.message).toContain('CI_DIAGNOSIS_LIMITS_GIT_CONCURRENCY');
  });

  it('lets the test-only crash point through: serve reads and checks it itself', () => {
    expect(() => load({ CI_DIAGNOSIS_CRASH_AFTER: 'publish' })).not.toThrow();
  });

  it('takes the conventional names, and an empty variable counts as unset', () => {
    const { config, sources } = load({
      GERRIT_USERNAME: 'ci-diagnosis',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4010',
      CHROMIUM_PATH: '/opt/chromium/chrome',
      LOG_LEVEL: 'warn',
      CI_DIAGNOSIS_MODEL: 'claude-opus-4-1',
      ANTHROPIC_API_KEY: '',
      CI_DIAGNOSIS_SERVER_PORT: '',
    });
    expect(config.gerrit.username).toBe('ci-diagnosis');
    expect(config.model.baseUrl).toBe('http://127.0.0.1:4010/');
    expect(config.scraper.chromiumPath).toBe('/opt/chromium/chrome');
    expect(config.log.level).toBe('warn');
    expect(config.model.name).toBe('claude-opus-4-1');
    expect(config.model.apiKey).toBeNull();
    expect(config.server.port).toBe(8787);
    expect(sources['gerrit.username']).toEqual({ kind: 'env', name: 'GERRIT_USERNAME' });
    expect(modelSettings(config).engine).toBe('rules');
  });

  it('accepts a conventional and a CI_DIAGNOSIS_ name together only when they agree', () => {
    expect(load({ GERRIT_USERNAME: 'bot', CI_DIAGNOSIS_GERRIT_USERNAME: 'bot' }).config.gerrit.username).toBe(
      'bot',
    );
    const err = problems(() => load({ GERRIT_USERNAME: 'bot', CI_DIAGNOSIS_GERRIT_USERNAME: 'other' }));
    expect(err.problems).toEqual([
      {
        key: 'gerrit.username',
        source: null,
        message: 'set by CI_DIAGNOSIS_GERRIT_USERNAME and GERRIT_USERNAME with different values: keep one',
      },
    ]);
  });

  it('wires Gerrit, the webhook and the model from the environment', () => {
    const { config, sources } = load(GERRIT_ENV, GERRIT_FILES);
    expect(gerritConnection(config)).toEqual({
      baseUrl: 'http://gerrit:8080/',
      username: 'ci-diagnosis',
      password: 'hunter2-http-password',
      timeoutMs: 30_000,
      retries: 3,
    });
    expect(config.gerrit.webUrl).toBe('http://gerrit:8080/');
    expect(sources['gerrit.webUrl']).toEqual({ kind: 'derived', from: 'gerrit.baseUrl' });
    expect(eventPolicy(config)).toEqual(
      EventPolicy.parse({ ci_accounts: ['ci-bot', 'jenkins@example.com'], self_account: 'ci-diagnosis' }),
    );
    expect(modelSettings(config)).toMatchObject({
      engine: 'claude',
      apiKey: 'sk-ant-test-key-123456',
      model: DEFAULT_MODEL,
      concurrency: 2,
      runTokens: DEFAULT_RUN_TOKENS,
    });
    expect(storagePaths(config)).toEqual({
      dataDir: '/srv/app/var',
      runsDb: '/srv/app/var/runs.sqlite',
      evidenceDir: '/srv/app/var/evidence',
      signaturesDir: '/srv/app/var/signatures',
      reposDir: '/srv/app/var/repos',
    });
  });
});

describe('secrets', () => {
  it('come from *_FILE variables, without the trailing newline', () => {
    const { config, sources } = load(
      {
        CI_DIAGNOSIS_GERRIT_PASSWORD_FILE: '/run/secrets/pw',
        CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET_FILE: '/run/secrets/hook',
        ANTHROPIC_API_KEY_FILE: '/run/secrets/key',
        GERRIT_USERNAME: 'bot',
        CI_DIAGNOSIS_GERRIT_EVENTS_CI_ACCOUNTS: 'ci-bot',
      },
      {
        '/run/secrets/pw': 'pa ss\r\n',
        '/run/secrets/hook': `${'h'.repeat(40)}\n`,
        '/run/secrets/key': 'sk-key',
      },
    );
    expect(config.gerrit.password).toBe('pa ss');
    expect(config.gerrit.webhookSecret).toBe('h'.repeat(40));
    expect(config.model.apiKey).toBe('sk-key');
    expect(sources['gerrit.password']).toEqual({
      kind: 'env-file',
      name: 'CI_DIAGNOSIS_GERRIT_PASSWORD_FILE',
      path: '/run/secrets/pw',
    });
  });

  it('refuse a variable and its *_FILE together, a missing file and an empty one', () => {
    const err = problems(() =>
      load(
        {
          GERRIT_PASSWORD: 'x',
          GERRIT_PASSWORD_FILE: '/run/secrets/pw',
          ANTHROPIC_API_KEY_FILE: '/run/secrets/missing',
          CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET_FILE: '/run/secrets/empty',
        },
        { '/run/secrets/pw': 'y', '/run/secrets/empty': '\n' },
      ),
    );
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.problems).toEqual([
      {
        key: 'gerrit.password',
        source: null,
        message: 'set by GERRIT_PASSWORD and GERRIT_PASSWORD_FILE: keep one',
      },
      {
        key: 'gerrit.webhookSecret',
        source: {
          kind: 'env-file',
          name: 'CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET_FILE',
          path: '/run/secrets/empty',
        },
        message: 'the file is empty',
      },
      {
        key: 'model.apiKey',
        source: { kind: 'env-file', name: 'ANTHROPIC_API_KEY_FILE', path: '/run/secrets/missing' },
        message: "cannot read the file: ENOENT: no such file or directory, open '/run/secrets/missing'",
      },
    ]);
  });

  it('are refused in JSON config files, naming the file and where to put them instead', () => {
    const leaked = JSON.stringify({
      gerrit: { password: 'hunter2', username: 'bot' },
      model: { apiKey: 'sk-ant-x' },
    });
    const err = problems(() => load({ CI_DIAGNOSIS_CONFIG: '/etc/ci.json' }, { '/etc/ci.json': leaked }));
    expect(err.problems.map((p) => [p.key, p.source])).toEqual([
      ['gerrit.password', { kind: 'file', path: '/etc/ci.json' }],
      ['model.apiKey', { kind: 'file', path: '/etc/ci.json' }],
    ]);
    expect(err.message).toContain(
      'gerrit.password (file /etc/ci.json): secrets are not read from config files: remove it and set GERRIT_PASSWORD or CI_DIAGNOSIS_GERRIT_PASSWORD (or GERRIT_PASSWORD_FILE / CI_DIAGNOSIS_GERRIT_PASSWORD_FILE naming a file)',
    );
    expect(err.message).not.toContain('hunter2');
    expect(err.message).not.toContain('sk-ant-x');
  });

  it('never appear in an error message, even when they are invalid', () => {
    const err = problems(() => load({ CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET: 'tooshort-s3cr3t' }));
    expect(err.problems[0]).toMatchObject({
      key: 'gerrit.webhookSecret',
      source: { kind: 'env', name: 'CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET' },
    });
    expect(err.message).not.toContain('tooshort-s3cr3t');
  });
});

describe('bad values are named with their source', () => {
  it('lists every problem at once: env values, file values, unknown keys and variables', () => {
    const file = JSON.stringify({
      server: { port: '8080', maxQueDepth: 5 },
      gerrit: { notify: 'EVERYONE', events: 'ci-bot' },
      scraper: { concurrency: 0 },
      extra: {},
    });
    const err = problems(() =>
      load(
        {
          CI_DIAGNOSIS_CONFIG: '/etc/ci.json',
          CI_DIAGNOSIS_SERVER_SHUTDOWN_GRACE_MS: '30s',
          CI_DIAGNOSIS_SERVER_TRUST_PROXY: 'maybe',
          CI_DIAGNOSIS_GERRIT_BASE_URL: 'https://bot:pw@review.example.com',
          CI_DIAGNOSIS_GERRIT_WEBHOOK_ALLOWED_CIDRS: '10.0.0.0/8,10.1.0.0/33',
          CI_DIAGNOSIS_GERRIT_EVENTS_REPORT_URL_PATTERN: '(unclosed',
          CI_DIAGNOSIS_SERVR_PORT: '1',
        },
        { '/etc/ci.json': file },
      ),
    );
    const byKey = Object.fromEntries(err.problems.map((p) => [p.key, p]));
    const file_ = { kind: 'file', path: '/etc/ci.json' };
    expect(byKey['server.maxQueDepth']).toEqual({
      key: 'server.maxQueDepth',
      source: file_,
      message: 'unknown setting; did you mean server.maxQueueDepth?',
    });
    expect(byKey['gerrit.events']).toMatchObject({
      source: file_,
      message: 'expected an object (a section)',
    });
    expect(byKey.extra).toMatchObject({ source: file_, message: expect.stringMatching(/^unknown setting/) });
    expect(byKey['server.port']).toMatchObject({
      source: file_,
      message: expect.stringContaining('expected number'),
    });
    expect(byKey['gerrit.notify']).toMatchObject({ source: file_ });
    expect(byKey['scraper.concurrency']).toMatchObject({ source: file_ });
    expect(byKey['server.shutdownGraceMs']).toEqual({
      key: 'server.shutdownGraceMs',
      source: { kind: 'env', name: 'CI_DIAGNOSIS_SERVER_SHUTDOWN_GRACE_MS' },
      message: 'expected a whole number, got "30s"',
    });
    expect(byKey['server.trustProxy']?.message).toBe('expected true or false, got "maybe"');
    expect(byKey['gerrit.baseUrl']).toMatchObject({
      source: { kind: 'env', name: 'CI_DIAGNOSIS_GERRIT_BASE_URL' },
      message: expect.stringContaining('must not carry credentials'),
    });
    expect(byKey['gerrit.webhookAllowedCidrs']?.message).toContain('(item 1)');
    expect(byKey['gerrit.events.reportUrlPattern']?.message).toBe('not a valid regular expression');
    expect(byKey.CI_DIAGNOSIS_SERVR_PORT?.message).toBe(
      'not a setting; did you mean CI_DIAGNOSIS_SERVER_PORT?',
    );
    expect(err.message).toMatch(/^invalid configuration \(\d+ problems\):\n {2}- /);
    expect(err.message).toContain(
      '  - server.shutdownGraceMs (env CI_DIAGNOSIS_SERVER_SHUTDOWN_GRACE_MS): expected a whole number, got "30s"',
    );
  });

  it('names a missing or broken config file', () => {
    const missing = problems(() => load({ CI_DIAGNOSIS_CONFIG: '/etc/none.json' }));
    expect(missing.problems).toEqual([
      {
        key: 'CI_DIAGNOSIS_CONFIG',
        source: { kind: 'env', name: 'CI_DIAGNOSIS_CONFIG' },
        message:
          "cannot read config file /etc/none.json: ENOENT: no such file or directory, open '/etc/none.json'",
      },
    ]);
    const broken = problems(() =>
      load({ CI_DIAGNOSIS_CONFIG: '/etc/ci.json' }, { '/etc/ci.json': '{"server": ' }),
    );
    expect(broken.problems[0]).toMatchObject({
      source: { kind: 'file', path: '/etc/ci.json' },
      message: expect.stringMatching(/^not valid JSON/),
    });
  });

  it('checks settings that need each other, and says which variable to set', () => {
    const err = problems(() =>
      load({
        CI_DIAGNOSIS_GERRIT_BASE_URL: 'https://review.example.com',
        CI_DIAGNOSIS_GERRIT_WEBHOOK_SECRET: 's'.repeat(20),
        CI_DIAGNOSIS_MODEL_ENGINE: 'claude',
      }),
    );
    expect(err.problems.map((p) => [p.key, p.message])).toEqual([
      [
        'gerrit.username',
        'required when gerrit.baseUrl is set; set CI_DIAGNOSIS_GERRIT_USERNAME (or GERRIT_USERNAME)',
      ],
      [
        'gerrit.password',
        'required when gerrit.baseUrl is set; set GERRIT_PASSWORD or CI_DIAGNOSIS_GERRIT_PASSWORD (or GERRIT_PASSWORD_FILE / CI_DIAGNOSIS_GERRIT_PASSWORD_FILE naming a file)',
      ],
      [
        'gerrit.events.ciAccounts',
        'the webhook is enabled (a secret or allowed CIDRs are set) but names no CI account; set CI_DIAGNOSIS_GERRIT_EVENTS_CI_ACCOUNTS',
      ],
      [
        'gerrit.events.selfAccount',
        "the webhook needs the service's own account (or gerrit.username) so it never triggers itself; set CI_DIAGNOSIS_GERRIT_EVENTS_SELF_ACCOUNT",
      ],
      [
        'model.apiKey',
        'required when model.engine is claude; set ANTHROPIC_API_KEY or CI_DIAGNOSIS_MODEL_API_KEY (or ANTHROPIC_API_KEY_FILE / CI_DIAGNOSIS_MODEL_API_KEY_FILE naming a file)',
      ],
    ]);
  });
});

describe('redaction', () => {
  const loaded = load(GERRIT_ENV, GERRIT_FILES);
  const SECRETS = ['hunter2-http-password', 'w'.repeat(32), 'sk-ant-test-key-123456'];

  it('describeConfig prints every setting with its source and no secret', () => {
    const text = describeConfig(loaded);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain(
      `gerrit.password = ${REDACTED}  # file /run/secrets/gerrit_password from env GERRIT_PASSWORD_FILE`,
    );
    expect(text).toContain(`model.apiKey = ${REDACTED}  # env ANTHROPIC_API_KEY`);
    expect(text).toContain('gerrit.baseUrl = "http://gerrit:8080/"  # env CI_DIAGNOSIS_GERRIT_BASE_URL');
    expect(text).toContain(`server.port = 8787  # file ${DEFAULT_CONFIG_PATH}`);
    expect(text.split('\n')).toHaveLength(SETTINGS.length + 1);
    expect(describeConfig(load())).toContain('gerrit.password = (not set)  # built-in default');
  });

  it('redactionPaths keep pino from logging the secrets wherever the config is logged', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ redact: { paths: [...redactionPaths], censor: REDACTED } }, sink);
    const { config } = loaded;
    log.info({ config }, 'whole config');
    log.info(config, 'config as the object');
    log.info({ gerrit: config.gerrit, model: config.model }, 'sections');
    log.info({ settings: { gerrit: config.gerrit } }, 'one level down');
    log.info({ query: { secret: config.gerrit.webhookSecret } }, 'webhook query');
    log.info({ options: gerritConnection(config), claude: modelSettings(config) }, 'derived');
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      for (const secret of SECRETS) expect(line).not.toContain(secret);
      expect(line).toContain(REDACTED);
    }
    expect(lines[0]).toContain('"baseUrl":"http://gerrit:8080/"');
  });

  it('masks secrets in free text and secret query parameters in URLs', () => {
    const { config } = loaded;
    expect(
      maskSecrets(`401 for ci-diagnosis:hunter2-http-password at ${config.gerrit.baseUrl}`, config),
    ).toBe(`401 for ci-diagnosis:${REDACTED} at http://gerrit:8080/`);
    expect(redactUrlQuery(`/hooks/gerrit?secret=${'w'.repeat(32)}&x=1`)).toBe(
      `/hooks/gerrit?secret=${REDACTED}&x=1`,
    );
  });
});

describe('webhook helpers', () => {
  it('sourceAllowList matches IPv4, IPv6 and IPv4-mapped IPv6 addresses', () => {
    const allowed = sourceAllowList(['10.0.0.0/8', '192.168.1.7', 'fd00::/8']);
    expect(allowed('10.20.30.40')).toBe(true);
    expect(allowed('::ffff:10.20.30.40')).toBe(true);
    expect(allowed('192.168.1.7')).toBe(true);
    expect(allowed('192.168.1.8')).toBe(false);
    expect(allowed('fd12::1')).toBe(true);
    expect(allowed('2001:db8::1')).toBe(false);
    expect(allowed('not an address')).toBe(false);
    expect(sourceAllowList([])('127.0.0.1')).toBe(false);
  });

  it('secretMatches compares in constant time and never matches an unset secret', () => {
    expect(secretMatches('a'.repeat(20), 'a'.repeat(20))).toBe(true);
    expect(secretMatches('a'.repeat(19), 'a'.repeat(20))).toBe(false);
    expect(secretMatches(undefined, 'a'.repeat(20))).toBe(false);
    expect(secretMatches('', null)).toBe(false);
  });
});
