import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { isDiagnosisError } from '../errors/index.ts';
import type { EventPolicy } from '../events/index.ts';
import type { EvidenceStore } from '../store/evidence/index.ts';
import type { JobQueue, RunStore } from '../store/runs/index.ts';
import type { Counters } from './metrics.ts';
import { registerEvidenceRoutes } from './routes/evidence.ts';
import { registerHookRoutes } from './routes/hooks.ts';
import { registerOpsRoutes } from './routes/ops.ts';
import { registerRunRoutes } from './routes/runs.ts';

export interface AppDeps {
  runs: RunStore;
  queue: JobQueue;
  evidence: EvidenceStore;
  counters: Counters;
  log: Logger;
  /** Queue depth at which new runs are refused with 429. */
  maxQueueDepth: number;
  /** Seconds a refused client is told to wait. */
  retryAfterSeconds: number;
  /** Absolute base for links in Gerrit comments (our pages); null: links are root-relative. */
  publicBaseUrl: string | null;
  gerritWebUrl: string | null;
  hooks: { policy: EventPolicy | null; secret: string | null; allowed: (address: string) => boolean };
  /** Reads code at a revision for the page (best effort: the page says when it cannot). */
  codeAt?(
    project: string | null,
    revision: string,
  ): { read(path: string): Promise<string | null> } | undefined;
}

/** The HTTP surface: runs in and out, the report page, QA evidence, Gerrit hooks, health and metrics. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // pino is fastify's own logger; only the declared types differ.
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    bodyLimit: 16 * 1024 * 1024,
    // Request lines would carry the webhook secret in the query; the stages log what matters.
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: 16 * 1024 * 1024, files: 1 } });
  app.setErrorHandler((err, _request, reply) => sendError(reply, err));
  registerOpsRoutes(app, deps);
  registerRunRoutes(app, deps);
  registerEvidenceRoutes(app, deps);
  registerHookRoutes(app, deps);
  return app;
}

/** Bad input is a 4xx naming the problem; the process keeps serving. */
export function sendError(reply: FastifyReply, err: unknown): FastifyReply {
  if (isDiagnosisError(err)) {
    const status = err.code === 'RUN_NOT_FOUND' ? 404 : 400;
    return reply.status(status).send({ error: err.code, message: err.message });
  }
  const status =
    typeof err === 'object' && err !== null && 'statusCode' in err ? Number(err.statusCode) : 500;
  const message = err instanceof Error ? err.message : String(err);
  return reply
    .status(status >= 400 && status < 600 ? status : 500)
    .send({ error: 'REQUEST_FAILED', message });
}
