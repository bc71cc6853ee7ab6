import { combineDiff, parseRawDiff } from './diff-parse.ts';
import type { GitObjects } from './objects.ts';
import type { FileDiff } from './schema.ts';

/**
 * Where a change's per-file hunks come from: git here, Gerrit's DiffInfo later. Everything
 * downstream sees only `FileDiff`, so the locator does not know which.
 */
export interface DiffSource {
  /** Files that differ from `base` to `target`, with exact (context-free) hunks. */
  diff(base: string, target: string): Promise<FileDiff[]>;
}

export interface GitDiffSourceOptions {
  /**
   * Line matching algorithm. Histogram by default: it is what Gerrit (JGit) shows reviewers,
   * so git and Gerrit diff sources agree on which lines a change touched.
   */
  algorithm?: 'histogram' | 'myers' | 'patience' | 'minimal';
}

/**
 * Flags shared by both diff runs: rename detection, and nothing from configuration or
 * `.gitattributes` that could reshape the output or run a program (external diff, textconv).
 */
const COMMON = ['-M', '--no-color', '--no-ext-diff', '--no-textconv'];

/** `DiffSource` from the repository's own objects, via `git diff` between two commits. */
export class GitDiffSource implements DiffSource {
  constructor(
    private readonly objects: GitObjects,
    private readonly options: GitDiffSourceOptions = {},
  ) {}

  async diff(base: string, target: string): Promise<FileDiff[]> {
    const [from, to] = await Promise.all([this.objects.ensure(base), this.objects.ensure(target)]);
    const common = [...COMMON, `--diff-algorithm=${this.options.algorithm ?? 'histogram'}`, from, to, '--'];
    // Two runs, one answer each: exact paths and blob ids from `--raw -z`, hunks from `-U0`.
    const [raw, patch] = await Promise.all([
      this.objects.runner.run(['diff', '--raw', '-z', '--no-abbrev', ...common]),
      this.objects.runner.run(['diff', '--patch', '-U0', '--src-prefix=a/', '--dst-prefix=b/', ...common]),
    ]);
    return combineDiff(parseRawDiff(raw), patch);
  }
}
