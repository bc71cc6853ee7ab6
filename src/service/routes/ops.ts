import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.ts';
import { renderMetrics } from '../metrics.ts';

export function registerOpsRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/healthz', async () => ({ ok: true, queue_depth: await deps.queue.depth() }));
  app.get('/metrics', async (_request, reply) =>
    reply
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(await renderMetrics(deps.runs, deps.counters)),
  );
}
