import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DiagnosisError } from '../../errors/index.ts';
import type { QaEvidenceKind } from '../../store/runs/index.ts';
import type { AppDeps } from '../app.ts';
import { pageUrl, parse } from './runs.ts';

/** The form's kinds (src/page/form.ts) as the run store names them. */
const KINDS: Record<string, QaEvidenceKind> = {
  text: 'text',
  log_file: 'log',
  trace_id: 'trace_id',
  rerun_result: 'rerun_result',
};
const MAX_TEXT = 4 * 1024 * 1024;

const EvidenceBody = z.object({
  kind: z.enum(['text', 'log_file', 'trace_id', 'rerun_result']),
  failure: z.string().max(200).optional().default(''),
  text: z.string().max(MAX_TEXT).optional().default(''),
});
const Params = z.object({ id: z.string().regex(/^[A-Za-z0-9._-]{1,56}$/) });

/**
 * QA adds evidence (the page's form, or the API): it is stored as evidence, and the run is
 * re-diagnosed from the diagnose stage; an update is posted only if the diagnosis changed.
 */
export function registerEvidenceRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post('/runs/:id/evidence', async (request, reply) => {
    const { id } = parse(Params, request.params, 'run id');
    await deps.runs.get(id);
    const { fields, file } = await readForm(request);
    const body = parse(EvidenceBody, fields, 'evidence');
    const text = file ?? body.text;
    if (text.trim() === '')
      throw new DiagnosisError('INVALID_ARGUMENT', 'evidence: text: give some text or a file', {
        input: 'text',
      });
    const evidenceId = deps.evidence.put(text, {
      kind: body.kind === 'log_file' ? 'log' : 'attachment',
      source: `qa:/runs/${id}`,
    });
    deps.evidence.flush();
    const note = body.failure === '' ? null : `failure ${body.failure}`;
    const rerun = await deps.queue.rerun(id, 'diagnose', {
      evidence_id: evidenceId,
      kind: KINDS[body.kind] ?? 'text',
      note,
    });
    const result = {
      evidence_id: evidenceId,
      round: rerun.round,
      started: rerun.started,
      page_url: pageUrl(deps, id),
    };
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    return wantsHtml ? reply.redirect(`/runs/${id}`, 303) : reply.status(202).send(result);
  });
}

/** Multipart (the page's form, with an optional file), urlencoded or JSON. */
async function readForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, string>; file: string | null }> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, string>, file: null };
  const fields: Record<string, string> = {};
  let file: string | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') file = await readFile(part);
    else fields[part.fieldname] = String(part.value);
  }
  return { fields, file: file === '' ? null : file };
}

async function readFile(part: MultipartFile): Promise<string> {
  const bytes = await part.toBuffer();
  return bytes.toString('utf8');
}
