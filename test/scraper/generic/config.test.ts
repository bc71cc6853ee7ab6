import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPlatformConfig, parsePlatformConfig } from '../../../scraper/platforms/generic/index.ts';
import { parseCount, parseDuration } from '../../../scraper/platforms/generic/parse.ts';
import { DiagnosisError } from '../../../src/errors/index.ts';

const FIXTURE_CONFIG = 'config/platforms/fixture-platform.json';
/** The fixture config as plain JSON, for tests to spoil one field. */
interface Editable {
  match?: unknown;
  summary: Record<string, unknown>;
  list: Record<string, unknown>;
  detail: Record<string, unknown>;
}
const valid = (): Editable => JSON.parse(readFileSync(FIXTURE_CONFIG, 'utf8')) as Editable;

describe('loadPlatformConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'generic-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const failureOf = async (path: string): Promise<DiagnosisError> => {
    const err = await loadPlatformConfig(path).then(
      () => null,
      (e: unknown) => e,
    );
    if (!(err instanceof DiagnosisError)) throw new Error(`expected a DiagnosisError, got ${String(err)}`);
    return err;
  };

  it('reads the fixture platform config with defaults filled in', async () => {
    const config = await loadPlatformConfig(FIXTURE_CONFIG);

    expect(config.name).toBe('fixture-platform');
    expect(config.summary.path).toBe('index.html');
    expect(config.detail.durationUnit).toBe('s');
    expect(config.detail.logs).toHaveLength(2);
  });

  it.each([
    [
      'a missing row selector',
      (c: Editable) => {
        delete c.list.row;
      },
      'list.row',
    ],
    ['a misspelt key', (c: Editable) => (c.summary.rows = 'tr'), 'summary.rows'],
    ['a bad status pattern', (c: Editable) => (c.list.failedStatus = '(fail'), 'list.failedStatus'],
    ['a zero page bound', (c: Editable) => (c.list.maxPages = 0), 'list.maxPages'],
    [
      'a log with neither toggle nor link',
      (c: Editable) => (c.detail.logs = [{ name: 'x' }]),
      'detail.logs.0.link',
    ],
    [
      'a folded log without its content',
      (c: Editable) => (c.detail.logs = [{ name: 'x', toggle: 'button' }]),
      'detail.logs.0.content',
    ],
    [
      'a match that matches everything',
      (c: Editable) => {
        delete c.match;
        c.match = {};
      },
      'match',
    ],
  ])('rejects %s, naming the file and the field', async (_, spoil, field) => {
    const config = valid();
    spoil(config);
    const path = write(`${field}.json`, JSON.stringify(config));

    const err = await failureOf(path);

    expect(err.code).toBe('PLATFORM_CONFIG_INVALID');
    expect(err.message).toContain(path);
    expect(err.message).toContain(`field "${field}"`);
    expect(err.input).toBe(path);
  });

  it('rejects a file that is not JSON, or not there', async () => {
    const notJson = write('broken.json', '{ "name": ');
    const missing = join(dir, 'absent.json');

    const [a, b] = [await failureOf(notJson), await failureOf(missing)];

    expect([a.code, b.code]).toEqual(['PLATFORM_CONFIG_INVALID', 'PLATFORM_CONFIG_INVALID']);
    expect(a.message).toMatch(new RegExp(`${notJson} is not valid JSON`));
    expect(b.message).toMatch(new RegExp(`${missing} cannot be read`));
  });

  it('names an in-memory config by its origin', () => {
    expect(() => parsePlatformConfig({ name: 'x' }, 'inline test config')).toThrow(
      /platform config inline test config is invalid: field "match"/,
    );
  });
});

describe('shown durations and counts', () => {
  it.each([
    ['3 ms', 's', 3],
    ['1.234 s', 's', 1234],
    ['0,5s', 's', 500],
    ['1m 2s', 's', 62_000],
    ['1 min 2.5 sec', 's', 62_500],
    ['00:01:02.5', 's', 62_500],
    ['2', 's', 2000],
    ['2', 'ms', 2],
    ['soon', 's', null],
    ['3 parsecs', 's', null],
  ] as const)('%s (bare unit %s) is %s ms', (text, unit, ms) => {
    expect(parseDuration(text, unit)).toBe(ms);
  });

  it.each([
    ['3 failed', 3],
    ['Failures: 12', 12],
    ['none', null],
  ])('%s counts %s', (text, count) => {
    expect(parseCount(text)).toBe(count);
  });
});
