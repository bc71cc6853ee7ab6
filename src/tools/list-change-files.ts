import { z } from 'zod';
import type { FileDiff } from '../git/index.ts';
import { LIMITS } from './limits.ts';
import { takeWithin } from './text.ts';
import { defineTool } from './tool.ts';

/** The files the change under review touches, with line counts, so the model can pick diffs to read. */
export const listChangeFiles = defineTool({
  name: 'list_change_files',
  description:
    'Files this change touches (base → revision): path, old path when renamed, status (added, deleted, ' +
    'modified, renamed), hunk count and added/removed line counts. Long lists are cut ("truncated").',
  input: z.strictObject({}),
  run: async (ctx) => {
    const files = takeWithin(
      ctx.diff.slice(0, LIMITS.maxChangeFiles).map(describeChange),
      LIMITS.maxTextChars,
    );
    return {
      revision: ctx.revision,
      base: ctx.base,
      files: files.kept,
      total: ctx.diff.length,
      truncated: files.truncated || ctx.diff.length > LIMITS.maxChangeFiles,
    };
  },
});

function describeChange(d: FileDiff) {
  return {
    file: d.newPath ?? d.oldPath ?? '',
    old_path: d.oldPath === d.newPath ? null : d.oldPath,
    status: d.status,
    binary: d.binary === true,
    hunks: d.hunks.length,
    added: d.hunks.reduce((n, h) => n + h.newLines, 0),
    removed: d.hunks.reduce((n, h) => n + h.oldLines, 0),
  };
}
