import type { DiagnosisContext } from '../../context/index.ts';
import type { Issue, Triage } from '../../schemas/index.ts';
import { clipLine, readTools, type ToolsetOptions } from '../../tools/index.ts';
import { changeFiles, compactIssue, firstMessage } from './brief.ts';
import { SUBMIT_TOOL } from './submit.ts';

/**
 * What the model is given (the design's ablations): `skill` is the product (the Skill as system
 * prompt, the deterministic triage and the locator's candidates in the brief, every read tool);
 * `facts` gives the structured facts without triage, candidates or Skill; `diff` gives only the
 * failing test's message and the change's diff. The lesser inputs exist to measure what each
 * part adds, not to serve users.
 */
export type ModelInput = 'skill' | 'facts' | 'diff';

/** The system prompt of the ablations without the Skill: the task and the submit contract only. */
export const PLAIN_SYSTEM = [
  'You diagnose a failing test of a CI run on a code change.',
  `Use the read-only tools to look at what you need, then call ${SUBMIT_TOOL} once with your diagnosis:`,
  'the verdict, the root-cause category, where to change code or test, why (each claim citing what you read), and how to verify.',
].join('\n');

/** The tools a `diff` model may use: the change and the code, not the report's facts. */
const DIFF_TOOLS = new Set(['get_file_diff', 'list_change_files', 'read_file']);

export function briefFor(input: ModelInput, issue: Issue, triage: Triage, ctx: DiagnosisContext): string {
  if (input === 'skill') return firstMessage(issue, triage, ctx);
  const test = issue.test.full_name ?? issue.test.name;
  const opening =
    `Diagnose failure ${issue.id} of this CI run at revision ${ctx.revision}. Finish by calling ` +
    `${SUBMIT_TOOL} with issue_id ${JSON.stringify(issue.id)}, test ${JSON.stringify(test)} and ` +
    `report_url ${JSON.stringify(issue.url)}.`;
  const files = `Files this change touches (${ctx.diff.length} in all; get_file_diff shows one):\n${JSON.stringify(changeFiles(ctx))}`;
  if (input === 'diff') {
    return [opening, `The test failed with: ${clipLine(issue.summary, 500)}`, files].join('\n\n');
  }
  const { candidates: _located, ...facts } = compactIssue(issue);
  return [opening, `Facts of failure ${issue.id}:\n${JSON.stringify(facts)}`, files].join('\n\n');
}

/** The read tools an input allows; undefined = all of them (the toolset's default). */
export function toolsFor(
  input: ModelInput,
  options: Pick<ToolsetOptions, 'baseCode' | 'extraEvidence'>,
): ToolsetOptions['tools'] {
  if (input !== 'diff') return undefined;
  return readTools(options).filter((tool) => DIFF_TOOLS.has(tool.name));
}
