import { describe, expect, it } from 'vitest';
import { isDiagnosisError } from '../../../src/errors/index.ts';
import {
  type CodeLanguage,
  createCodeParser,
  type GrammarLoader,
  readBundledGrammar,
} from '../../../src/locate/anchor/index.ts';

/** The bundled grammars, counting what is asked for, failing on demand. */
function countingLoader(failing: Set<CodeLanguage> = new Set()) {
  const calls: CodeLanguage[] = [];
  const load: GrammarLoader = async (language) => {
    calls.push(language);
    if (failing.has(language)) throw new Error(`no grammar for ${language} here`);
    return readBundledGrammar(language);
  };
  return { calls, load };
}

describe('createCodeParser', () => {
  it('loads a grammar on first use only, once per language, even for concurrent calls', async () => {
    const loader = countingLoader();
    const parser = await createCodeParser({ loadGrammar: loader.load });

    await Promise.all([
      parser.functions('def a():\n    pass\n', 'python'),
      parser.functions('def b(): pass', 'python'),
    ]);
    await parser.functions('func A() {}', 'go');
    await parser.functions('def c(): pass', 'python');
    parser.dispose();

    expect(loader.calls).toEqual(['python', 'go']);
  });

  it('reports a grammar that cannot be loaded with a coded error and its cause, and retries next time', async () => {
    const failing = new Set<CodeLanguage>(['kotlin']);
    const loader = countingLoader(failing);
    const parser = await createCodeParser({ loadGrammar: loader.load });

    const error = await parser.functions('fun a() {}', 'kotlin').catch((err: unknown) => err);
    failing.clear();
    const spans = await parser.functions('fun a() {}', 'kotlin');
    parser.dispose();

    expect(isDiagnosisError(error) && error.code).toBe('INPUT_NOT_FOUND');
    expect(error).toMatchObject({ message: expect.stringContaining('kotlin'), cause: expect.any(Error) });
    expect(spans.map((s) => s.name)).toEqual(['a']);
    expect(loader.calls).toEqual(['kotlin', 'kotlin']);
  });

  it('rejects bytes that are not a grammar', async () => {
    const parser = await createCodeParser({ loadGrammar: async () => new Uint8Array([0, 1, 2, 3]) });

    await expect(parser.functions('class A {}', 'java')).rejects.toMatchObject({ code: 'INPUT_NOT_FOUND' });
    parser.dispose();
  });

  it('refuses to parse after dispose', async () => {
    const parser = await createCodeParser();
    await parser.functions('func A() {}', 'go');

    parser.dispose();

    await expect(parser.functions('func A() {}', 'go')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('keeps instances independent: disposing one leaves another working', async () => {
    const first = await createCodeParser();
    const second = await createCodeParser();
    await first.functions('func A() {}', 'go');

    first.dispose();
    const spans = await second.functions('func B() {}', 'go');
    second.dispose();

    expect(spans.map((s) => s.name)).toEqual(['B']);
  });
});
