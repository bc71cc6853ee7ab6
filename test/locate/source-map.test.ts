import { transformSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocator, type Locator, openLocatorDeps } from '../../src/locate/index.ts';
import type { Location } from '../../src/schemas/index.ts';
import { TempRepo } from '../helpers/git-repo.ts';

const SOURCE = `interface Item {
  price: number;
}

export function total(items: Item[]): number {
  let sum = 0;
  for (const item of items) sum += item.price;
  if (Number.isNaN(sum)) throw new Error('price missing');
  return sum;
}
`;

/** A repository that commits its build output with a real source map, as esbuild writes it. */
describe('locator through a source map', () => {
  const repo = new TempRepo();
  let revision: string;
  let builtLine: number;
  let locator: Locator;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const out = transformSync(SOURCE, {
      loader: 'ts',
      format: 'esm',
      sourcemap: 'external',
      sourcefile: '../src/cart.ts',
    });
    builtLine = out.code.split('\n').findIndex((l) => l.includes('price missing')) + 1;
    revision = repo.commit(
      {
        'src/cart.ts': SOURCE,
        'dist/cart.js': `${out.code}//# sourceMappingURL=cart.js.map\n`,
        'dist/cart.js.map': out.map,
      },
      'build output with its map',
    );
    const deps = await openLocatorDeps(repo.dir);
    locator = createLocator(deps);
    close = deps.close;
  });
  afterAll(async () => {
    await close();
    repo.remove();
  });

  it('maps a frame in built JavaScript back to the TypeScript line', async () => {
    const frame: Location = {
      role: 'failure',
      file: '/home/jenkins/workspace/shop/dist/cart.js',
      line: builtLine,
      column: 27,
      function: 'total',
      snippet: null,
      language: 'javascript',
      library: false,
      frame_index: 0,
    };

    const at = await locator.locate(frame, { revision, reportRevision: revision, diffBase: null });

    expect(builtLine).not.toBe(8);
    expect(at).toMatchObject({ level: 'line', file: 'src/cart.ts', lines: { start: 8, end: 8 } });
    expect(at.reasons.join(' | ')).toMatch(
      /source map dist\/cart\.js\.map: dist\/cart\.js:\d+ → src\/cart\.ts:8/,
    );
  });
});
