import type { FileDiff } from '../git/index.ts';
import type { DiffImpact, FunctionSpan, LineRange } from '../schemas/index.ts';

const MAX_CHANGED_RANGES = 5;

/**
 * How the change under review touches a place: inside a changed hunk, inside a changed
 * function, elsewhere in a changed file, or not at all. Same-file callers and callees among
 * the changed functions are named, since a change there often explains a failure here.
 */
export function diffImpact(
  file: string,
  place: { line: number | null; fn: FunctionSpan | null },
  change: readonly FileDiff[] | null,
  file_: { lines: readonly string[]; spans: readonly FunctionSpan[] },
): DiffImpact {
  if (change === null) return { kind: 'unknown', changed_lines: [], related_functions: [] };
  const fileDiff = change.find((d) => d.newPath === file);
  if (fileDiff === undefined) return { kind: 'untouched', changed_lines: [], related_functions: [] };
  const changed = fileDiff.hunks.map((h) => ({
    start: h.newStart,
    end: h.newStart + Math.max(h.newLines, 1) - 1,
  }));
  const focus = place.line ?? place.fn?.lines.start ?? 1;
  const nearest = [...changed]
    .sort((a, b) => distance(a, focus) - distance(b, focus))
    .slice(0, MAX_CHANGED_RANGES)
    .sort((a, b) => a.start - b.start);
  const kind =
    place.line !== null && changed.some((r) => within(place.line as number, r))
      ? 'in_hunk'
      : place.fn !== null && changed.some((r) => overlaps(r, (place.fn as FunctionSpan).lines))
        ? 'in_function'
        : 'in_file';
  return { kind, changed_lines: nearest, related_functions: related(place.fn, changed, file_) };
}

/** Changed functions of this file that the place's function calls, or that call it. */
function related(
  fn: FunctionSpan | null,
  changed: readonly LineRange[],
  file: { lines: readonly string[]; spans: readonly FunctionSpan[] },
): string[] {
  if (fn === null) return [];
  const touched = file.spans.filter((s) => s !== fn && changed.some((r) => overlaps(r, s.lines)));
  const body = (s: FunctionSpan) => file.lines.slice(s.lines.start - 1, s.lines.end).join('\n');
  const simple = (name: string) => name.slice(name.lastIndexOf('.') + 1);
  const calls = (caller: FunctionSpan, callee: FunctionSpan) =>
    new RegExp(`\\b${escapeRegex(simple(callee.name))}\\s*\\(`).test(body(caller));
  return touched.filter((s) => calls(fn, s) || calls(s, fn)).map((s) => s.name);
}

function within(line: number, r: LineRange): boolean {
  return line >= r.start && line <= r.end;
}

function overlaps(a: LineRange, b: LineRange): boolean {
  return a.start <= b.end && b.start <= a.end;
}

function distance(r: LineRange, line: number): number {
  return within(line, r) ? 0 : Math.min(Math.abs(r.start - line), Math.abs(r.end - line));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
