import * as TreeSitter from 'web-tree-sitter';
import { DiagnosisError, describeError } from '../../errors/index.ts';
import { extractSpans } from './extract/index.ts';
import { type GrammarLoader, readBundledGrammar } from './grammars.ts';
import type { CodeLanguage } from './language.ts';
import type { CodeSpan } from './span.ts';

export interface CodeParser {
  /**
   * Every function-like definition of `source`, in document order. The first call for a
   * language loads its grammar (hence async); later calls only parse. tree-sitter recovers from
   * syntax errors, so a broken file still yields the functions it can see.
   */
  functions(source: string, language: CodeLanguage): Promise<CodeSpan[]>;
  /** Frees the parsers' WASM memory; the instance cannot parse afterwards. */
  dispose(): void;
}

export interface CodeParserOptions {
  /** Where grammar bytes come from; the bundled tree-sitter-wasms files by default. */
  loadGrammar?: GrammarLoader;
}

/** Loads the web-tree-sitter runtime; grammars are loaded on first use and kept by the instance. */
export async function createCodeParser(options: CodeParserOptions = {}): Promise<CodeParser> {
  try {
    await TreeSitter.Parser.init();
  } catch (err: unknown) {
    throw new DiagnosisError('INVALID_ARGUMENT', `web-tree-sitter failed to start: ${describeError(err)}`, {
      cause: err,
    });
  }
  return new TreeSitterCodeParser(options.loadGrammar ?? readBundledGrammar);
}

class TreeSitterCodeParser implements CodeParser {
  private readonly parsers = new Map<CodeLanguage, Promise<TreeSitter.Parser>>();
  private readonly loaded: TreeSitter.Parser[] = [];
  private disposed = false;

  constructor(private readonly loadGrammar: GrammarLoader) {}

  async functions(source: string, language: CodeLanguage): Promise<CodeSpan[]> {
    const parser = await this.parserFor(language);
    if (this.disposed) throw new DiagnosisError('INVALID_ARGUMENT', 'the code parser was disposed');
    const tree = parser.parse(source);
    if (tree === null)
      throw new DiagnosisError('INVALID_ARGUMENT', `tree-sitter returned no tree for ${language}`);
    // Trees live in WASM memory, which the JS garbage collector does not see.
    try {
      return extractSpans(tree.rootNode, language);
    } finally {
      tree.delete();
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const parser of this.loaded.splice(0)) parser.delete();
    this.parsers.clear();
  }

  /** One parser per language, so switching languages never re-sets a shared parser. */
  private parserFor(language: CodeLanguage): Promise<TreeSitter.Parser> {
    if (this.disposed)
      return Promise.reject(new DiagnosisError('INVALID_ARGUMENT', 'the code parser was disposed'));
    let parser = this.parsers.get(language);
    if (parser === undefined) {
      parser = this.load(language);
      this.parsers.set(language, parser);
    }
    return parser;
  }

  private async load(language: CodeLanguage): Promise<TreeSitter.Parser> {
    let grammar: TreeSitter.Language;
    try {
      grammar = await TreeSitter.Language.load(await this.loadGrammar(language));
    } catch (err: unknown) {
      // A failed load is not remembered: the next call tries again and reports its own error.
      this.parsers.delete(language);
      throw new DiagnosisError(
        'INPUT_NOT_FOUND',
        `tree-sitter grammar for ${language} could not be loaded: ${describeError(err)}`,
        {
          input: language,
          cause: err,
        },
      );
    }
    const parser = new TreeSitter.Parser();
    parser.setLanguage(grammar);
    if (this.disposed) {
      parser.delete();
      throw new DiagnosisError('INVALID_ARGUMENT', 'the code parser was disposed');
    }
    this.loaded.push(parser);
    return parser;
  }
}
