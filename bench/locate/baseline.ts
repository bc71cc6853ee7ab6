/**
 * The naive baseline: trust the reported line. The path is the reported one with a CI workspace
 * prefix stripped (the project's own rules), or else the one file at the revision that ends with
 * it; if no file is found the answer is need_evidence. The function is the frame's.
 */
import type { Location } from '../../src/schemas/index.ts';
import { git } from './git.ts';
import type { Claim } from './score.ts';

export class Baseline {
  private readonly trees = new Map<string, { files: Set<string>; byBase: Map<string, string[]> }>();

  constructor(
    private readonly gitDir: string,
    private readonly stripPrefixes: readonly RegExp[],
  ) {}

  async warm(revision: string): Promise<void> {
    if (this.trees.has(revision)) return;
    const files = (await git(this.gitDir, ['ls-tree', '-r', '-z', '--name-only', revision]))
      .split('\0')
      .filter(Boolean);
    const byBase = new Map<string, string[]>();
    for (const f of files) {
      const base = f.slice(f.lastIndexOf('/') + 1);
      byBase.set(base, [...(byBase.get(base) ?? []), f]);
    }
    this.trees.set(revision, { files: new Set(files), byBase });
  }

  /**
   * Synchronous once `warm(revision)` ran. `functionName` is the frame's function as the anchor
   * names it (so that the baseline is not penalised for the runtime's spelling).
   */
  locate(frame: Location, revision: string, functionName: string | null): Claim {
    const tree = this.trees.get(revision);
    if (!tree) throw new Error(`baseline: ${revision} not warmed`);
    let path = frame.file;
    for (const prefix of this.stripPrefixes) {
      if (prefix.test(path)) {
        path = path.replace(prefix, '');
        break;
      }
    }
    let file: string | null = tree.files.has(path) ? path : null;
    if (file === null) {
      const tail = `/${path}`;
      const matches = (tree.byBase.get(path.slice(path.lastIndexOf('/') + 1)) ?? []).filter((f) =>
        f.endsWith(tail),
      );
      if (matches.length === 1) file = matches[0] as string;
    }
    if (file === null || frame.line === null)
      return { level: 'need_evidence', file: null, lines: null, function: null };
    return { level: 'line', file, lines: { start: frame.line, end: frame.line }, function: functionName };
  }
}
