import { z } from 'zod';
import type { DiagnosisContext } from '../context/index.ts';
import { EvidenceId } from '../schemas/index.ts';
import { LIMITS } from './limits.ts';
import { numberLines, splitLines } from './text.ts';
import { defineTool, type ReadTool, toolRefusal } from './tool.ts';

const Input = z.strictObject({
  id: EvidenceId.describe('An evidence id (ev_…) from get_issue_facts.'),
  from: z.number().int().positive().default(1).describe('First line, 1-based.'),
  to: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Last line, inclusive; at most ${LIMITS.maxLines} lines are returned per call.`),
});

/**
 * A line range of one evidence item (trace, log, attachment…). Only items this run's facts
 * reference can be read (plus any the caller adds, e.g. re-run output), so the model cannot
 * wander into other runs' evidence, and every range it cites is one the checker can re-read.
 */
export function readEvidenceTool(extraIds: Iterable<string> = []): ReadTool<typeof Input> {
  const extra = new Set(extraIds);
  return defineTool({
    name: 'read_evidence',
    description:
      'Lines of one evidence item of this run (a trace, log or attachment) by id and line range, ' +
      `numbered "<line>\\t<text>"; at most ${LIMITS.maxLines} lines per call. Cite as ` +
      '{kind:"evidence", id, lines:{start,end}, quote} with the quote copied verbatim (without the numbers).',
    input: Input,
    run: async (ctx, input) => {
      if (!extra.has(input.id) && !referencedEvidence(ctx).has(input.id)) {
        throw toolRefusal(`evidence ${input.id} is not referenced by this run's facts`, input.id);
      }
      const record = ctx.evidence.get(input.id);
      const from = input.from;
      if (from > Math.max(record.lines, 1)) {
        throw toolRefusal(
          `evidence ${input.id} has ${record.lines} lines; line ${from} does not exist`,
          input.id,
        );
      }
      const wanted = Math.min(input.to ?? from + LIMITS.maxLines - 1, from + LIMITS.maxLines - 1);
      if (wanted < from) throw toolRefusal(`line range ${from}-${wanted} is empty`, input.id);
      const fragment = await ctx.evidence.readFragment(input.id, from, wanted);
      const shown = numberLines(splitLines(fragment.text), from, fragment.to, { firstLine: from });
      const end = shown.end;
      // Without `to` the request was for the rest of the item.
      const truncated = end < Math.min(input.to ?? record.lines, record.lines);
      return {
        id: record.id,
        kind: record.kind,
        source: record.source,
        lines: { start: from, end },
        total_lines: record.lines,
        text: shown.text,
        truncated,
        next_from: end < record.lines ? end + 1 : null,
      };
    },
  });
}

const referenced = new WeakMap<DiagnosisContext, ReadonlySet<string>>();

/** Evidence ids the run's facts point at: per fact, per issue's source page, the run's environment. */
export function referencedEvidence(ctx: DiagnosisContext): ReadonlySet<string> {
  const known = referenced.get(ctx);
  if (known !== undefined) return known;
  const ids = new Set<string>();
  for (const fact of ctx.facts.run.environment) if (fact.evidence !== undefined) ids.add(fact.evidence);
  for (const issue of ctx.facts.issues) {
    if (issue.source_evidence !== undefined) ids.add(issue.source_evidence);
    for (const fact of issue.facts) if (fact.evidence !== undefined) ids.add(fact.evidence);
  }
  referenced.set(ctx, ids);
  return ids;
}
