import type { DiagnosisRun } from '../schemas/index.ts';
import { type Html, html } from './html.ts';

/**
 * The QA evidence form. It posts `multipart/form-data` to the run's evidence endpoint with these
 * field names, so the server's parser and this form share one definition.
 */
export const EVIDENCE_FORM_FIELDS = {
  kind: 'kind',
  /** An issue id of the run, or empty for the run as a whole. */
  failure: 'failure',
  text: 'text',
  file: 'file',
} as const;

export const EVIDENCE_FORM_KINDS = {
  text: 'Text (a note, a log excerpt, a DB record)',
  log_file: 'Log file',
  trace_id: 'Trace id',
  rerun_result: 'Re-run result',
} as const;
export type EvidenceFormKind = keyof typeof EVIDENCE_FORM_KINDS;

export function evidenceForm(run: DiagnosisRun, action: string | null): Html {
  if (action === null) return html`<p class="muted">Evidence cannot be added from this page.</p>`;
  const f = EVIDENCE_FORM_FIELDS;
  const kinds = Object.entries(EVIDENCE_FORM_KINDS).map(
    ([value, label]) => html`<option value="${value}">${label}</option>`,
  );
  const failures = run.failures.map(
    (failure, i) => html`<option value="${failure.issue_id}">${i + 1}. ${clip(failure.test)}</option>`,
  );
  return html`<form class="qa" method="post" enctype="multipart/form-data" action="${action}">
<p class="small">What you add is stored as evidence of this run; the run is diagnosed again and Gerrit gets an update only if the diagnosis changes.</p>
<div class="fields">
<div class="field"><label for="ev-kind">Kind</label><select id="ev-kind" name="${f.kind}" required>${kinds}</select></div>
<div class="field"><label for="ev-failure">Failure</label><select id="ev-failure" name="${f.failure}"><option value="">The whole run</option>${failures}</select></div>
</div>
<div class="field"><label for="ev-text">Text</label><textarea id="ev-text" name="${f.text}" rows="6" aria-describedby="ev-text-help"></textarea>
<p id="ev-text-help" class="small muted">A log excerpt, a trace id, what a re-run showed — or leave empty and attach a file.</p></div>
<div class="field"><label for="ev-file">File</label><input id="ev-file" name="${f.file}" type="file"></div>
<p><button type="submit">Add evidence and diagnose again</button></p>
</form>`;
}

function clip(text: string): string {
  return text.length <= 90 ? text : `${text.slice(0, 89)}…`;
}
