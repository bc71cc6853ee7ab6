import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FactsDocument } from '../../src/schemas/index.ts';
import { TempRepo } from '../helpers/git-repo.ts';

const run = promisify(execFile);
const SHOP = 'test/fixtures/build/projects/shop-vitest';

/**
 * Scrape the real Allure report, then locate its frames in a repository holding the sources the
 * report's vitest run was made from — as CI would hand both to the service.
 */
describe('ci-diagnosis locate', () => {
  const repo = new TempRepo();
  const dir = mkdtempSync(join(tmpdir(), 'locate-cli-'));
  let revision: string;

  beforeAll(async () => {
    cpSync(join(SHOP, 'src'), join(repo.dir, 'src'), { recursive: true });
    cpSync(join(SHOP, 'test'), join(repo.dir, 'test'), { recursive: true });
    revision = repo.commit({}, 'shop sources the report was built from');
    await cli(
      'scrape',
      'test/fixtures/reports/allure2',
      '--out',
      join(dir, 'facts.json'),
      '--evidence-dir',
      join(dir, 'ev'),
    );
  });
  afterAll(() => {
    repo.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the facts with verified candidates for every project frame', async () => {
    const out = join(dir, 'located.json');

    await cli(
      'locate',
      '--facts',
      join(dir, 'facts.json'),
      '--repo',
      repo.dir,
      '--revision',
      revision,
      '--report-revision',
      revision,
      '--out',
      out,
    );

    const located = FactsDocument.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(located.located?.revision).toBe(revision);
    const ledger = located.issues.find((i) => i.test.name === 'posts the order total to the ledger');
    const failure = ledger?.candidates?.find((c) => c.reported.role === 'failure');
    const expectedLine =
      readFileSync(join(SHOP, 'src/ledger.ts'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('assert.equal(')) + 1;
    expect(failure).toMatchObject({ level: 'line', file: 'src/ledger.ts' });
    expect(failure?.lines?.start).toBe(expectedLine);
    // The pytest failures' sources are not in this repository: no place is claimed for them.
    const python = located.issues.find((i) => i.test.name === 'test_import_csv_in_boxes');
    expect(python?.candidates?.every((c) => c.level === 'need_evidence')).toBe(true);
  });

  it('mirrors a remote repository and fetches a Gerrit change ref on demand', async () => {
    repo.git('update-ref', 'refs/changes/01/1/1', revision);
    const out = join(dir, 'located-remote.json');
    const cacheDir = join(dir, 'mirrors');

    await cli(
      'locate',
      ...['--facts', join(dir, 'facts.json'), '--repo', `file://${repo.dir}`, '--cache-dir', cacheDir],
      ...['--revision', 'refs/changes/01/1/1', '--report-revision', revision, '--out', out],
    );

    const located = FactsDocument.parse(JSON.parse(readFileSync(out, 'utf8')));
    const ledger = located.issues.find((i) => i.test.name === 'posts the order total to the ledger');
    expect(ledger?.candidates?.find((c) => c.reported.role === 'failure')).toMatchObject({
      level: 'line',
      file: 'src/ledger.ts',
    });
    expect(readdirSync(cacheDir).some((name) => name.endsWith('.git'))).toBe(true);
  });

  it('rejects facts that are not a facts document, naming the file', async () => {
    const bad = join(dir, 'bad.json');
    cpSync('package.json', bad);

    const result = await cli('locate', '--facts', bad, '--repo', repo.dir, '--revision', revision).catch(
      (e: { code: number; stderr: string }) => e,
    );

    expect(result).toMatchObject({ code: 2 });
    expect((result as { stderr: string }).stderr).toMatch(/error \[MALFORMED_REPORT\]: facts .*bad\.json/);
  });
});

function cli(...args: string[]) {
  return run(process.execPath, ['bin/ci-diagnosis.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'error' },
  });
}
