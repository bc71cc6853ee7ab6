import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DiagnosisError } from '../../errors/index.ts';
import { renderRunPage } from '../../page/index.ts';
import { DiagnosisRun, FactsDocument } from '../../schemas/index.ts';
import { RunRequest } from '../../store/runs/index.ts';
import type { AppDeps } from '../app.ts';

const RunParams = z.object({ id: z.string().regex(/^[A-Za-z0-9._-]{1,56}$/) });

export function registerRunRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post('/api/runs', async (request, reply) => {
    const body = parse(RunRequest, request.body, 'run request');
    if ((await deps.queue.depth()) >= deps.maxQueueDepth) {
      deps.counters.rejected++;
      return reply
        .status(429)
        .header('retry-after', String(deps.retryAfterSeconds))
        .send({ error: 'QUEUE_FULL', message: `the queue is full; retry in ${deps.retryAfterSeconds} s` });
    }
    const { run, created } = await deps.runs.create(body);
    return reply
      .status(created ? 202 : 200)
      .send({ id: run.id, state: run.state, created, page_url: pageUrl(deps, run.id) });
  });

  app.get('/api/runs/:id', async (request) => {
    const { id } = parse(RunParams, request.params, 'run id');
    const run = await deps.runs.get(id);
    const diagnosis = await deps.runs.output(id, 'diagnose');
    return {
      run,
      stages: await deps.runs.stages(id),
      posts: await deps.runs.posts(id),
      diagnosis: diagnosis?.output ?? null,
    };
  });

  app.get('/runs/:id', async (request, reply) => {
    const { id } = parse(RunParams, request.params, 'run id');
    const run = await deps.runs.get(id);
    const [diagnosis, located] = await Promise.all([
      deps.runs.output(id, 'diagnose'),
      deps.runs.output(id, 'locate'),
    ]);
    if (diagnosis === null || located === null) {
      return reply.type('text/html; charset=utf-8').send(pendingPage(run.id, run.state, run.stage));
    }
    const parsed = DiagnosisRun.parse(diagnosis.output);
    const code = deps.codeAt?.(run.request.project, parsed.change.revision);
    const html = await renderRunPage({
      run: parsed,
      facts: FactsDocument.parse(located.output),
      evidence: deps.evidence,
      ...(deps.gerritWebUrl === null ? {} : { gerrit: { baseUrl: deps.gerritWebUrl } }),
      ...(code === undefined ? {} : { code }),
      links: { self: `/runs/${id}`, evidenceForm: `/runs/${id}/evidence` },
    });
    return reply.type('text/html; charset=utf-8').send(html);
  });
}

export function pageUrl(deps: Pick<AppDeps, 'publicBaseUrl'>, id: string): string {
  return `${deps.publicBaseUrl ?? '/'}runs/${id}`;
}

/** Zod at the border: the error names what was sent and the first bad field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.join('.') || '(body)';
  throw new DiagnosisError('INVALID_ARGUMENT', `${what}: ${where}: ${issue?.message ?? 'invalid'}`, {
    input: where,
  });
}

/** No JavaScript: the page refreshes itself until the diagnosis is there. */
function pendingPage(id: string, state: string, stage: string | null): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._ -]/g, '');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Run ${safe(id)}</title></head><body><h1>Run ${safe(id)}</h1><p>${safe(state)}${stage === null ? '' : `: ${safe(stage)}`}. This page refreshes until the diagnosis is ready.</p></body></html>`;
}
