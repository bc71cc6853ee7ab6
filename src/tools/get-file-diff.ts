import { z } from 'zod';
import type { DiagnosisContext, RevisionCode } from '../context/index.ts';
import type { FileDiff, Hunk } from '../git/index.ts';
import { LIMITS } from './limits.ts';
import { numberLines, splitLines } from './text.ts';
import { defineTool, type JsonObject, type ReadTool, toolRefusal } from './tool.ts';

const Input = z.strictObject({
  path: z.string().min(1).describe('A path the change touched (new or old name), from list_change_files.'),
});

/**
 * The hunks of one changed file: removed lines numbered at the base ("-<line>\t"), added lines at
 * the revision ("+<line>\t"). Hunks are exact (no context lines; read_file shows the
 * surroundings). `baseCode` reads the base revision; without it removed lines are counted, not shown.
 */
export function fileDiffTool(baseCode: RevisionCode | null = null): ReadTool<typeof Input> {
  return defineTool({
    name: 'get_file_diff',
    description:
      'The change\'s hunks for one file: removed lines as "-<base line>\\t<text>", added lines as ' +
      '"+<revision line>\\t<text>", no context lines (use read_file for those). ' +
      `At most ${LIMITS.maxLines} lines in all. Cite as {kind:"diff", file, lines:{start,end}} with ` +
      'revision-side lines.',
    input: Input,
    run: async (ctx, input) => {
      const change = ctx.diff.find((d) => d.newPath === input.path || d.oldPath === input.path);
      if (change === undefined) {
        throw toolRefusal(
          `${input.path} is not changed by this change (${ctx.diff.length} files are; see list_change_files)`,
          input.path,
        );
      }
      return describeFileDiff(change, await sides(ctx, change, baseCode));
    },
  });
}

interface Sides {
  base: string[] | null;
  revision: string[] | null;
}

async function sides(ctx: DiagnosisContext, change: FileDiff, baseCode: RevisionCode | null): Promise<Sides> {
  if (change.binary === true) return { base: null, revision: null };
  const revision = change.newPath === null ? null : await ctx.code.read(change.newPath);
  const base = change.oldPath === null || baseCode === null ? null : await baseCode.read(change.oldPath);
  return {
    base: base === null ? null : splitLines(base),
    revision: revision === null ? null : splitLines(revision),
  };
}

function describeFileDiff(change: FileDiff, text: Sides): JsonObject {
  let lines = LIMITS.maxLines;
  let chars = LIMITS.maxTextChars;
  let truncated = false;
  const hunks = change.hunks.map((hunk) => {
    const shown = showHunk(hunk, text, { lines, chars });
    lines -= shown.rows;
    chars -= shown.text.length;
    truncated ||= shown.truncated;
    return {
      old: { start: hunk.oldStart, count: hunk.oldLines },
      new: { start: hunk.newStart, count: hunk.newLines },
      lines: hunk.newLines > 0 ? { start: hunk.newStart, end: hunk.newStart + hunk.newLines - 1 } : null,
      text: shown.text,
      truncated: shown.truncated,
    };
  });
  return {
    file: change.newPath ?? change.oldPath ?? '',
    old_path: change.oldPath,
    status: change.status,
    binary: change.binary === true,
    removed_text: text.base !== null,
    hunks,
    truncated,
  };
}

/** One hunk's rows within what is left of the result's line and character budget. */
function showHunk(
  hunk: Hunk,
  text: Sides,
  left: { lines: number; chars: number },
): { text: string; rows: number; truncated: boolean } {
  const parts: string[] = [];
  let rows = 0;
  let truncated = false;
  const sidesToShow = [
    { lines: text.base, start: hunk.oldStart, count: hunk.oldLines, prefix: '-' },
    { lines: text.revision, start: hunk.newStart, count: hunk.newLines, prefix: '+' },
  ];
  for (const side of sidesToShow) {
    if (side.count === 0 || side.lines === null) continue;
    const budget = { maxLines: left.lines - rows, maxChars: left.chars - parts.join('\n').length };
    if (budget.maxLines <= 0 || budget.maxChars <= 0) {
      truncated = true;
      continue;
    }
    const shown = numberLines(side.lines, side.start, side.start + side.count - 1, {
      ...budget,
      prefix: side.prefix,
    });
    if (shown.text !== '') parts.push(shown.text);
    rows += shown.end - shown.start + 1;
    truncated ||= shown.truncated;
  }
  return { text: parts.join('\n'), rows, truncated };
}
