import { z } from 'zod';
import { DiagnosisDraft } from '../../schemas/index.ts';
import { inputSchema, type ToolDefinition } from '../../tools/index.ts';

export const SUBMIT_TOOL = 'submit_diagnosis';

/** The final tool: its input schema is the DiagnosisDraft schema, so the draft arrives as structured JSON. */
export function submitDefinition(): ToolDefinition {
  return {
    name: SUBMIT_TOOL,
    description:
      'Submit the diagnosis of this failure (ends the work). Every claim cites what the tools returned: ' +
      'facts by issue_id and index, evidence by id, line range and verbatim quote, code and diff by file ' +
      'and lines at the revision, signals by name. Use need_evidence and missing_evidence where the ' +
      'evidence does not decide.',
    input_schema: inputSchema(SUBMIT_TOOL, DiagnosisDraft),
  };
}

export type Submission = { ok: true; draft: DiagnosisDraft } | { ok: false; problem: string };

/**
 * The model's submission checked against the schema (and that it diagnoses the failure it was
 * asked about). Content is not judged here: the evidence checker does that, on the draft as given.
 */
export function checkSubmission(input: unknown, issueId: string): Submission {
  const parsed = DiagnosisDraft.safeParse(input);
  if (!parsed.success) return { ok: false, problem: z.prettifyError(parsed.error) };
  if (parsed.data.issue_id !== issueId) {
    return {
      ok: false,
      problem: `issue_id is "${parsed.data.issue_id}"; this diagnosis is for issue "${issueId}"`,
    };
  }
  return { ok: true, draft: parsed.data };
}
