import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DiagnosisError } from '../../src/errors/index.ts';
import type { ReportSource } from '../source/index.ts';
import { allure2Adapter } from './allure2/index.ts';
import { allure3Adapter } from './allure3/index.ts';
import { createGenericAdapter, loadPlatformConfig } from './generic/index.ts';
import { junitAdapter } from './junit/index.ts';
import type { PlatformAdapter } from './types.ts';

/** `allure2`, `allure3`, `junit` or `generic:<config name in config/platforms/>`. */
export type PlatformChoice = string;

export interface Registry {
  byChoice(choice: PlatformChoice): Promise<PlatformAdapter>;
  detect(source: ReportSource, input: string): Promise<PlatformAdapter>;
}

/** The adapters known to the scraper; generic platforms come from config files. */
export function createRegistry(platformsDir: string): Registry {
  const builtIn: PlatformAdapter[] = [allure2Adapter, allure3Adapter];
  const generic = async (): Promise<PlatformAdapter[]> => {
    const names = (await readdir(platformsDir)).filter((f) => f.endsWith('.json')).sort();
    return Promise.all(
      names.map(async (n) => createGenericAdapter(await loadPlatformConfig(join(platformsDir, n)))),
    );
  };
  return {
    async byChoice(choice) {
      const known = [...builtIn, junitAdapter].find((a) => a.platform === choice);
      if (known) return known;
      const name = choice.match(/^generic:([\w.-]+)$/)?.[1];
      if (name === undefined) {
        throw new DiagnosisError(
          'INVALID_ARGUMENT',
          `platform "${choice}" is unknown: use allure2, allure3, junit or generic:<name>`,
          { input: choice },
        );
      }
      return createGenericAdapter(await loadPlatformConfig(join(platformsDir, `${name}.json`)));
    },
    async detect(source, input) {
      // Cheapest and most specific first: Allure data files, then configured sites, then XML.
      for (const adapter of [...builtIn, ...(await generic()), junitAdapter]) {
        if (await adapter.detect(source)) return adapter;
      }
      throw new DiagnosisError(
        'NOT_A_REPORT',
        `${input} is not a report this service can read (no Allure 2/3 data, no configured platform matches, not JUnit XML)`,
        { input },
      );
    },
  };
}
