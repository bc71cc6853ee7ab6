import type { CommentInput } from '../gerrit/index.ts';
import type { DiagnosisRun, FailureDiagnosis } from '../schemas/index.ts';
import { encodeFix, linesOf } from './fixes.ts';
import { clipBytes, type PublishLimits } from './limits.ts';
import { codeBlock, inlineCode, inlineText, link } from './markdown.ts';
import type { PatchsetView } from './patchset.ts';
import { changeText, verdictText, whyText } from './wording.ts';

/** What became of each failure's place, for the summary to say. */
export type Placement = 'inline' | 'file' | 'summary_only' | 'over_limit';

export interface CommentPlan {
  comments: Record<string, CommentInput[]>;
  placements: Placement[];
  /** Fixes left out and why (invalid for Gerrit, or suggestions switched off). */
  fixNotes: string[];
}

export interface CommentOptions {
  limits: PublishLimits;
  /** Attach verified fixes as `fix_suggestions` (off when the server refuses them). */
  fixSuggestions: boolean;
}

/**
 * The gate between a diagnosis and Gerrit's diff view: an inline comment only for a `line`
 * place in a file of the patchset whose lines exist at the revision, a file comment for
 * `function` and `file` places (and for a line that no longer checks out), nothing for
 * `need_evidence` or files outside the patchset — those are for the summary only.
 */
export async function planComments(
  run: DiagnosisRun,
  view: PatchsetView,
  options: CommentOptions,
): Promise<CommentPlan> {
  const files = await view.files();
  const plan: CommentPlan = { comments: {}, placements: [], fixNotes: [] };
  let count = 0;
  for (const [index, failure] of run.failures.entries()) {
    const { file } = failure.place;
    if (failure.place.level === 'need_evidence' || file === null || !files.has(file)) {
      plan.placements.push('summary_only');
      continue;
    }
    const comment = await commentFor(run, index, view, options, plan.fixNotes);
    const existing = plan.comments[file] ?? [];
    const same = existing.findIndex((c) => sameAnchor(c, comment));
    if (same < 0 && count >= options.limits.maxComments) {
      plan.placements.push('over_limit');
      continue;
    }
    plan.placements.push(comment.line === undefined ? 'file' : 'inline');
    if (same >= 0)
      existing[same] = merged(existing[same] as CommentInput, comment, options.limits.maxCommentBytes);
    else {
      plan.comments[file] = [...existing, comment];
      count++;
    }
  }
  return plan;
}

/** Failures that point at the same lines (or the same file) share one comment: the diff is not a list. */
function sameAnchor(a: CommentInput, b: CommentInput): boolean {
  return a.line === b.line && JSON.stringify(a.range ?? null) === JSON.stringify(b.range ?? null);
}

function merged(a: CommentInput, b: CommentInput, maxBytes: number): CommentInput {
  const fixes = [...(a.fix_suggestions ?? []), ...(b.fix_suggestions ?? [])];
  const unique = fixes.filter(
    (f, i) => fixes.findIndex((g) => JSON.stringify(g) === JSON.stringify(f)) === i,
  );
  return {
    ...a,
    message: clipBytes(`${a.message}\n\n---\n\n${b.message}`, maxBytes),
    unresolved: a.unresolved === true || b.unresolved === true,
    ...(unique.length === 0 ? {} : { fix_suggestions: unique }),
  };
}

async function commentFor(
  run: DiagnosisRun,
  index: number,
  view: PatchsetView,
  options: CommentOptions,
  fixNotes: string[],
): Promise<CommentInput> {
  const failure = run.failures[index] as FailureDiagnosis;
  const anchor = await lineAnchor(failure, view);
  const fix = await fixFor(failure, view, options);
  if (fix.note !== undefined) fixNotes.push(`failure ${index + 1}: ${fix.note}`);
  const message = [
    commentMessage(run, index, anchor === null),
    ...(fix.text === undefined ? [] : [fix.text]),
  ];
  return {
    ...anchor,
    message: clipBytes(message.join('\n\n'), options.limits.maxCommentBytes),
    unresolved: failure.verdict === 'caused_by_change',
    ...(fix.suggestion === undefined ? {} : { fix_suggestions: [fix.suggestion] }),
  };
}

interface FixOutcome {
  suggestion?: NonNullable<CommentInput['fix_suggestions']>[number];
  /** What the comment says about the fix. */
  text?: string;
  /** Why the fix is not attached, for the summary. */
  note?: string;
}

/**
 * A verified fix rides on the comment as a fix suggestion; with suggestions switched off it is
 * shown as text to apply by hand; a fix whose ranges do not fit the revision is not shown at all.
 */
async function fixFor(
  failure: FailureDiagnosis,
  view: PatchsetView,
  options: CommentOptions,
): Promise<FixOutcome> {
  if (failure.fix === null) return {};
  const encoded = await encodeFix(failure.fix, await view.files(), view.text);
  if (!encoded.ok) return { note: `verified fix not attached: ${encoded.reason}` };
  const verified = `Verified edit (${inlineCode(failure.fix.verification.command)} passed): ${inlineText(failure.fix.description)}`;
  if (options.fixSuggestions)
    return { suggestion: encoded.fix, text: `${verified}. Use "Show fix" to preview it.` };
  const edits = encoded.fix.replacements.map(
    (r) =>
      `${inlineCode(r.path)} ${r.range.start_line}:${r.range.start_character}–${r.range.end_line}:${r.range.end_character} becomes:\n${codeBlock(r.replacement)}`,
  );
  return {
    text: [verified, ...edits].join('\n\n'),
    note: 'fix shown as text: this server does not take fix suggestions',
  };
}

type Anchor = Pick<CommentInput, 'line' | 'range'>;

/** The line range at the revision, or null when the place is not `line` or its lines are not there. */
async function lineAnchor(failure: FailureDiagnosis, view: PatchsetView): Promise<Anchor | null> {
  const { level, file, lines } = failure.place;
  if (level !== 'line' || lines === null || file === null) return null;
  const text = await view.text(file);
  if (text === null) return null;
  const fileLines = linesOf(text);
  const last = fileLines[lines.end - 1];
  if (last === undefined || lines.start > lines.end) return null;
  const range = {
    start_line: lines.start,
    start_character: 0,
    end_line: lines.end,
    end_character: last.length,
  };
  return { line: lines.end, range };
}

function commentMessage(run: DiagnosisRun, index: number, degraded: boolean): string {
  const failure = run.failures[index] as FailureDiagnosis;
  const parts = [
    `**CI diagnosis**, failure ${index + 1} of ${run.failures.length}: ${inlineCode(failure.test)} — ${verdictText(failure)}`,
  ];
  if (failure.place.function !== null && failure.place.level !== 'line') {
    parts.push(`In ${inlineCode(failure.place.function)}.`);
  }
  if (degraded && failure.place.level === 'line') {
    parts.push('The reported lines could not be confirmed at this revision; see the whole file.');
  }
  parts.push(`Why: ${whyText(failure)}`);
  if (failure.change !== null) parts.push(`Change: ${changeText(failure.change)}`);
  if (failure.verify.length > 0) parts.push(`Verify: ${failure.verify.map((v) => inlineCode(v)).join(', ')}`);
  if (run.page_url !== null) parts.push(link('Full diagnosis', run.page_url));
  return parts.join('\n\n');
}
