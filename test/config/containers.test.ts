import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { envTable, knownEnvNames, loadConfig, modelSettings, type ReadFile } from '../../src/config/index.ts';

// docker-compose.yml, the Dockerfile and docs/containers.md cannot be run here (no Docker); these
// checks keep them consistent with the config loader and with what the images document.

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  volumes?: string[];
  secrets?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; start_period?: string };
  stop_grace_period?: string;
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  secrets: Record<string, { file: string }>;
}

function loadCompose(): Compose {
  const doc = parseDocument(read('docker-compose.yml'), { uniqueKeys: true, prettyErrors: true });
  expect(doc.errors).toEqual([]);
  expect(doc.warnings).toEqual([]);
  return doc.toJS() as Compose;
}

/** Compose's interpolation: `$$`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `$VAR`. */
function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced?: string, op?: string, fallback?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare) as string;
      const value = vars[name];
      if (op === ':-') return value === undefined || value === '' ? (fallback ?? '') : value;
      if (op === '-') return value === undefined ? (fallback ?? '') : value;
      return value ?? '';
    },
  );
}

function serviceEnv(service: ComposeService, vars: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v ?? ''), vars)]),
  );
}

const SECRET_FILES: Record<string, string> = {
  '/run/secrets/gerrit_password': 'generated-http-password\n',
  '/run/secrets/webhook_secret': `${'a'.repeat(64)}\n`,
};
const secretsReader =
  (base: ReadFile): ReadFile =>
  (path) =>
    path in SECRET_FILES ? (SECRET_FILES[path] as string) : base(path);
const nodeRead: ReadFile = (path) => readFileSync(path, 'utf8');

describe('docker-compose.yml', () => {
  const compose = loadCompose();
  const gerrit = compose.services.gerrit as ComposeService;
  const app = compose.services['ci-diagnosis'] as ComposeService;

  it('has the service and the official Gerrit image, pinned to a 3.10.x tag', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['ci-diagnosis', 'gerrit']);
    expect(gerrit.image).toMatch(/^gerritcodereview\/gerrit:3\.10\.\d+$/);
    expect(app.build).toBe('.');
    expect(app.command).toEqual(['serve']);
    expect(app.depends_on).toEqual({ gerrit: { condition: 'service_healthy' } });
  });

  it('gives Gerrit the settings its image documents: CANONICAL_WEB_URL, its volumes, ports 8080 and 29418', () => {
    expect(gerrit.environment?.CANONICAL_WEB_URL).toBe('http://localhost:8080/');
    const mounts = (gerrit.volumes ?? []).map((v) => v.split(':'));
    expect(mounts.map(([, target]) => target).sort()).toEqual(
      [
        '/var/gerrit/cache',
        '/var/gerrit/db',
        '/var/gerrit/etc',
        '/var/gerrit/git',
        '/var/gerrit/index',
      ].sort(),
    );
    expect(gerrit.ports).toEqual(['127.0.0.1:8080:8080', '127.0.0.1:29418:29418']);
    expect(gerrit.healthcheck?.test.join(' ')).toContain('/config/server/version');
  });

  it("sets the fix-suggestions experiment in gerrit.config before the image's entrypoint runs", () => {
    const [shell, flags, script] = gerrit.entrypoint ?? [];
    expect([shell, flags]).toEqual(['/bin/bash', '-ec']);
    const run = interpolate(script as string, {});
    expect(run).toContain('git config -f "$cfg" --add experiments.enabled "$flag"');
    expect(run).toContain('flag=GerritBackendFeature__allow_fix_suggestions_in_comments');
    expect(run).toContain('cfg=/var/gerrit/etc/gerrit.config');
    expect(run.trimEnd().split('\n').at(-1)).toBe('exec /entrypoint.sh');
  });

  it('declares every named volume and secret it uses', () => {
    for (const service of Object.values(compose.services)) {
      for (const mount of service.volumes ?? []) {
        const [source] = mount.split(':');
        expect(compose.volumes, mount).toHaveProperty(source as string);
      }
      for (const secret of service.secrets ?? []) {
        expect(compose.secrets[secret]?.file, secret).toMatch(/^\.\/secrets\//);
      }
    }
  });

  it('sets only environment variables the config loader knows', () => {
    const known = knownEnvNames();
    for (const name of Object.keys(app.environment ?? {})) expect(known.has(name), name).toBe(true);
  });

  it("makes a valid configuration from the service's environment, secrets from /run/secrets", () => {
    const env = serviceEnv(app);
    for (const [name, value] of Object.entries(env)) {
      if (!name.endsWith('_FILE')) continue;
      const secret = /^\/run\/secrets\/(.+)$/.exec(value)?.[1];
      expect(app.secrets, name).toContain(secret);
    }
    const { config } = loadConfig(env, secretsReader(nodeRead), { cwd: '/app' });
    expect(config.server.host).toBe('0.0.0.0');
    expect(config.server.publicBaseUrl).toBe('http://localhost:8787/');
    expect(config.storage.dataDir).toBe('/data');
    expect(config.gerrit.baseUrl).toBe('http://gerrit:8080/');
    expect(config.gerrit.webUrl).toBe('http://localhost:8080/');
    expect(config.gerrit.username).toBe('ci-diagnosis');
    expect(config.gerrit.password).toBe('generated-http-password');
    expect(config.gerrit.events.ciAccounts).toEqual(['ci-bot']);
    expect(config.gerrit.events.selfAccount).toBe('ci-diagnosis');
    expect(modelSettings(config).engine).toBe('rules');

    const withKey = loadConfig(
      serviceEnv(app, { ANTHROPIC_API_KEY: 'sk-ant-x', CI_ACCOUNTS: 'jenkins' }),
      secretsReader(nodeRead),
    );
    expect(modelSettings(withKey.config).engine).toBe('claude');
    expect(withKey.config.gerrit.events.ciAccounts).toEqual(['jenkins']);

    // the port published, the port listened on and the port health-checked are one port
    const port = config.server.port;
    expect(app.ports).toEqual([`127.0.0.1:${port}:${port}`]);
    expect(app.healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${port}/healthz`);
    expect(app.volumes).toEqual([`ci-diagnosis-data:${config.storage.dataDir}`]);
    // compose waits longer than the service's own grace before it kills
    expect(Number.parseInt(app.stop_grace_period ?? '0', 10) * 1000).toBeGreaterThan(
      config.server.shutdownGraceMs,
    );
  });

  it('the webhook URL in the docs reaches the service on the compose network', () => {
    const { config } = loadConfig(serviceEnv(app), secretsReader(nodeRead), { cwd: '/app' });
    expect(read('docs/containers.md')).toContain(
      `http://ci-diagnosis:${config.server.port}/hooks/gerrit?secret=`,
    );
  });
});

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const logical = text.replace(/\\\n/g, ' ');

  it('builds on node:20-bookworm-slim with Debian chromium, runs as a non-root user', () => {
    expect(text).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(logical).toMatch(/apt-get install -y --no-install-recommends [^\n]*\bchromium\b/);
    expect(logical).toMatch(/npm ci --omit=dev/);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--", "node", "bin\/ci-diagnosis\.js"\]$/m);
    expect(text).toMatch(/^CMD \["serve"\]$/m);
    expect(existsSync(new URL('bin/ci-diagnosis.js', ROOT))).toBe(true);
  });

  it('keeps tsx among the runtime dependencies (the sources run through it, --omit=dev drops devDependencies)', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toHaveProperty('tsx');
    expect(pkg.dependencies).toHaveProperty('zod');
  });

  it('sets only known configuration variables, and they make a valid configuration', () => {
    const env: Record<string, string> = {};
    for (const line of logical.split('\n').filter((l) => l.startsWith('ENV '))) {
      for (const [, key, value] of line.slice(4).matchAll(/([A-Z0-9_]+)=(\S+)/g))
        env[key as string] = value as string;
    }
    const ours = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('CI_DIAGNOSIS_')));
    expect(Object.keys(ours).length).toBeGreaterThan(0);
    const known = knownEnvNames();
    for (const name of Object.keys(ours)) expect(known.has(name), name).toBe(true);
    const { config } = loadConfig(ours, nodeRead);
    expect(config.storage.dataDir).toBe('/data');
    expect(text).toContain(`EXPOSE ${config.server.port}`);
  });

  it('.dockerignore keeps secrets, node_modules and local data out, and the demo example in', () => {
    const ignore = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'secrets', 'node_modules', 'var', '.env']) expect(ignore).toContain(entry);
    for (const kept of ['test/corpus/price-rounding', 'test/fixtures/reports/allure2']) {
      expect(ignore).toContain(`!${kept}/**`);
      expect(existsSync(new URL(kept, ROOT)), kept).toBe(true);
    }
  });
});

describe('docs/containers.md', () => {
  const doc = read('docs/containers.md');

  it('carries the env mapping table exactly as the schema declares it', () => {
    const table = /<!-- env-table:start[^>]*-->\n([\s\S]*?)\n<!-- env-table:end -->/.exec(doc)?.[1];
    expect(table).toBe(envTable());
  });

  it('says how to set the fix-suggestions experiment and where the data lives', () => {
    expect(doc).toContain('GerritBackendFeature__allow_fix_suggestions_in_comments');
    const compose = loadCompose();
    for (const volume of Object.keys(compose.volumes)) expect(doc).toContain(`\`${volume}\``);
  });
});
