import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDir } from '../../scraper/index.ts';
import type { GerritServer } from './gerrit-server.ts';
import type { TempRepo } from './git-repo.ts';

/**
 * The CI half of the end-to-end tests: a small TypeScript shop whose vitest suite reports through
 * allure-vitest, checked out from Gerrit at a patchset, tested for real, turned into an Allure 3
 * report by the Allure CLI and served on loopback — what a verifier job does before it calls us.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOP = join(ROOT, 'test/fixtures/build/projects/shop-vitest');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const ALLURE = join(ROOT, 'node_modules/allure/cli.js');
const PROJECT_FILES = ['package.json', 'vitest.config.ts', '.gitignore'];
const PROJECT_DIRS = ['src', 'test'];

/** The assertion the change under review makes exact; the base rounds both sides, so it passes there. */
const EXACT = 'assert.equal(booked, expected,';
const ROUNDED = 'assert.equal(Math.round(booked), Math.round(expected),';

export const LEDGER = 'src/ledger.ts';
/** The line of `Ledger.verify` holding the assertion (1-based), which the change rewrites. */
export const LEDGER_ASSERT_LINE = 21;

/** The shop project as its repository holds it: sources, tests and the vitest configuration. */
export function shopFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of PROJECT_FILES) files[name] = readFileSync(join(SHOP, name), 'utf8');
  for (const dir of PROJECT_DIRS) {
    for (const path of walk(join(SHOP, dir))) files[relative(SHOP, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The ledger before the change (rounded, passing) and after it (exact, failing at LEDGER_ASSERT_LINE). */
export function ledgerVersions(): { before: string; after: string } {
  const after = readFileSync(join(SHOP, LEDGER), 'utf8');
  if (after.split('\n')[LEDGER_ASSERT_LINE - 1]?.includes(EXACT) !== true) {
    throw new Error(`${LEDGER}:${LEDGER_ASSERT_LINE} no longer holds the ledger assertion`);
  }
  return { before: after.replace(EXACT, ROUNDED), after };
}

export interface CiReport {
  /** The served report, as CI would link it. */
  url: string;
  /** Wall time of the test run and of the report generation, for the test's own log. */
  timings: { testsMs: number; reportMs: number };
  close(): Promise<void>;
}

/**
 * Checks out `ref` of `project` from Gerrit into `checkout` (a fresh TempRepo), runs the shop's
 * tests (they fail: that is the point), generates the Allure 3 report into `reportDir` and serves it.
 */
export async function runShopCi(
  gerrit: GerritServer,
  project: string,
  ref: string,
  checkout: TempRepo,
  reportDir: string,
): Promise<CiReport> {
  const remote = `http://${gerrit.user}:${gerrit.password}@${gerrit.url.slice('http://'.length)}a/${project}`;
  checkout.git('fetch', '-q', remote, ref);
  checkout.git('checkout', '-q', '--detach', 'FETCH_HEAD');
  // The checkout resolves vitest and allure-vitest from ours, as if `npm ci` had run there.
  const modules = join(checkout.dir, 'node_modules');
  if (!existsSync(modules)) symlinkSync(join(ROOT, 'node_modules'), modules, 'dir');
  let started = performance.now();
  const tests = await run(process.execPath, [VITEST, 'run', '--root', checkout.dir], checkout.dir);
  // Exit code 1 is "tests failed", which this project does on purpose; anything else is broken.
  if (tests.code !== 1) throw new Error(`the shop's vitest exited with ${tests.code}:\n${tests.output}`);
  const testsMs = performance.now() - started;
  started = performance.now();
  const results = join(checkout.dir, 'allure-results');
  const out = resolve(reportDir);
  const generated = await run(process.execPath, [ALLURE, 'generate', '--output', out, results], checkout.dir);
  if (generated.code !== 0 || !existsSync(join(out, 'widgets'))) {
    throw new Error(`allure generate exited with ${generated.code}:\n${generated.output}`);
  }
  const served = await serveDir(out);
  return {
    url: served.url,
    timings: { testsMs, reportMs: performance.now() - started },
    close: served.close,
  };
}

/** The outer vitest's own variables would make the child think it is a worker of ours. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' };
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|TINYPOOL|TEST$|NODE_ENV$|NODE_OPTIONS$)/.test(key)) env[key] ??= value;
  }
  return env;
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code, output: output.slice(-8_000) }));
  });
}
