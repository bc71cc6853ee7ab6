import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitObjects } from '../../src/git/index.ts';
import { GIT_ENV, TestRepo } from './repo.ts';

const FILES = 2_000;

/** Prints read throughput; asserts correctness only, since timing depends on the machine. */
describe('read throughput', () => {
  const repo = new TestRepo();
  let sha: string;
  const expected = new Map<string, string>();

  beforeAll(() => {
    for (let i = 0; i < FILES; i++) {
      const path = `pkg${i % 40}/module_${i}.py`;
      const content = `# module ${i}\n${'def f():\n    return 1\n'.repeat(10)}`;
      expected.set(path, content);
      repo.write(path, content);
    }
    sha = repo.commit({}, 'many files');
  });
  afterAll(() => repo.remove());

  it(`reads ${FILES} small files at a revision`, async () => {
    const objects = await GitObjects.openLocal(repo.dir);
    const paths = [...expected.keys()];
    const timings: Record<string, string> = {};
    const time = async (label: string, work: () => Promise<unknown>): Promise<void> => {
      const start = performance.now();
      await work();
      const ms = performance.now() - start;
      timings[label] =
        `${ms.toFixed(1)} ms (${Math.round((FILES / ms) * 1000).toLocaleString('en')} files/s)`;
    };

    try {
      await time('listFiles, cold', () => objects.listFiles(sha));
      await time('readFile one at a time, cold (batch round trips)', async () => {
        for (const path of paths) {
          if ((await objects.readFile(sha, path)) !== expected.get(path))
            throw new Error(`wrong text for ${path}`);
        }
      });
      await time('readFile one at a time, warm (cache)', async () => {
        for (const path of paths) await objects.readFile(sha, path);
      });
      const fresh = await GitObjects.openLocal(repo.dir);
      await fresh.listFiles(sha);
      await time('readFile all at once, cold (pipelined)', async () => {
        const texts = await Promise.all(paths.map((path) => fresh.readFile(sha, path)));
        expect(texts).toEqual([...expected.values()]);
      });
      await fresh.close();
      const sample = paths.slice(0, 200);
      const start = performance.now();
      for (const path of sample)
        execFileSync('git', ['cat-file', 'blob', `${sha}:${path}`], { cwd: repo.dir, env: GIT_ENV });
      const perProcess = (performance.now() - start) / sample.length;
      timings['one git process per read (for comparison)'] = `${perProcess.toFixed(2)} ms per file`;
      console.log(
        `git read throughput, ${FILES} files:\n${Object.entries(timings)
          .map(([k, v]) => `  ${k}: ${v}`)
          .join('\n')}`,
      );
    } finally {
      await objects.close();
    }
  });
});
