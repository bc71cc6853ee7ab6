import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { secretMatches } from '../../config/index.ts';
import { DiagnosisError } from '../../errors/index.ts';
import { decideOnEvent } from '../../events/index.ts';
import type { AppDeps } from '../app.ts';

const Query = z.object({ secret: z.string().optional() });

/**
 * Events from Gerrit's webhooks plugin. The plugin signs nothing: a request is accepted with the
 * shared secret (in the URL) or from an allowed address. Decisions: a CI's negative vote starts a
 * run, a retry request re-runs the patchset's latest run, a new patchset supersedes older work.
 */
export function registerHookRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post('/hooks/gerrit', async (request, reply) => {
    const { secret } = Query.parse(request.query ?? {});
    const trusted = secretMatches(secret, deps.hooks.secret) || deps.hooks.allowed(request.ip);
    if (!trusted)
      return reply
        .status(403)
        .send({ error: 'FORBIDDEN', message: 'webhook secret or source address not accepted' });
    if (deps.hooks.policy === null) {
      return reply
        .status(503)
        .send({ error: 'NOT_CONFIGURED', message: 'no CI accounts configured for Gerrit events' });
    }
    const decision = decideOnEvent(request.body, deps.hooks.policy, deps.log);
    if (decision.action === 'ignore') return reply.status(200).send(decision);
    if (decision.action === 'supersede') {
      const cancelled = await deps.queue.supersede(decision.change_number, decision.patchset);
      return reply.status(202).send({ ...decision, cancelled });
    }
    if (decision.trigger === 'retry_command') {
      const latest = await deps.runs.latest({
        project: decision.project,
        change: decision.change_number,
        patchset: decision.patchset,
      });
      if (latest === null)
        return reply
          .status(200)
          .send({ action: 'ignore', reason: 'no earlier run of this patchset to retry' });
      const rerun = await deps.queue.rerun(latest.id, 'scrape');
      return reply.status(202).send({ ...decision, run_id: latest.id, round: rerun.round });
    }
    if (decision.report_url === null) {
      throw new DiagnosisError(
        'INVALID_ARGUMENT',
        'the CI comment names no report URL; hand the run over with POST /api/runs',
        {
          input: 'comment',
        },
      );
    }
    const { run, created } = await deps.runs.create({
      project: decision.project,
      change: decision.change_number,
      patchset: decision.patchset,
      revision: decision.revision,
      report_url: decision.report_url,
    });
    return reply.status(202).send({ ...decision, run_id: run.id, created });
  });
}
