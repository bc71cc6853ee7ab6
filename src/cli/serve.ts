import { mkdirSync } from 'node:fs';
import type { Command } from 'commander';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import { evidenceChecker } from '../check/index.ts';
import {
  describeConfig,
  eventPolicy,
  gerritConnection,
  loadConfig,
  modelSettings,
  nodeReadFile,
  publishOptions,
  type ServiceConfig,
  sourceAllowList,
  storagePaths,
} from '../config/index.ts';
import { createEngine, loadPipelineSettings } from '../diagnose/index.ts';
import { DiagnosisError } from '../errors/index.ts';
import { GerritClient } from '../gerrit/index.ts';
import {
  buildApp,
  Counters,
  countingStages,
  crashPointFromEnv,
  runStage,
  WorkerPool,
} from '../service/index.ts';
import { EvidenceStore } from '../store/evidence/index.ts';
import { openRunStorage, type Stage } from '../store/runs/index.ts';
import { SignatureStore } from '../store/signatures/index.ts';
import { createProgress } from './progress.ts';

export function registerServe(program: Command, log: Logger, platformsDir: string): void {
  program
    .command('serve')
    .description('Run the service: HTTP API, report pages, Gerrit hooks and the diagnosis worker')
    .action(async () => {
      const loaded = loadConfig(process.env, nodeReadFile);
      const crashAfter = crashPointFromEnv(process.env);
      if (crashAfter !== null)
        log.warn({ crashAfter }, 'test-only crash point set: this process will kill itself');
      log.info({ config: describeConfig(loaded) }, 'configuration');
      await serve(loaded.config, log, platformsDir, crashAfter);
    });
}

/** Starts everything from one validated configuration and stops it gracefully on SIGTERM/SIGINT. */
async function serve(
  config: ServiceConfig,
  log: Logger,
  platformsDir: string,
  crashAfter: Stage | null,
): Promise<void> {
  const service = await openService(config, log, platformsDir, crashAfter);
  await service.app.listen({ host: config.server.host, port: config.server.port });
  service.worker.start();
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  log.info('shutting down: no new requests, the job in hand is finished');
  const grace = setTimeout(() => process.exit(1), config.server.shutdownGraceMs);
  await service.close();
  clearTimeout(grace);
}

/** The stores (unfinished runs recovered), the engine, the worker and the HTTP app. */
async function openService(
  config: ServiceConfig,
  log: Logger,
  platformsDir: string,
  crashAfter: Stage | null,
) {
  const paths = storagePaths(config);
  mkdirSync(paths.dataDir, { recursive: true });
  const storage = openRunStorage(paths.dataDir);
  await storage.queue.recover({ releaseAll: true });
  const evidence = new EvidenceStore({ root: paths.evidenceDir });
  const signatures = new SignatureStore(paths.signaturesDir);
  const connection = gerritConnection(config);
  const gerrit = connection === null ? null : new GerritClient(connection);
  const model = modelSettings(config);
  const engine = await createEngine(model);
  const pipeline = {
    store: evidence,
    signatures,
    ...(await loadPipelineSettings()),
    engine,
    checker: evidenceChecker,
    runTokens: model.runTokens,
    concurrency: model.concurrency,
    log,
    progress: createProgress(log),
    platformsDir,
  };
  const base = config.server.publicBaseUrl;
  const stageDeps = {
    runs: storage.runs,
    pipeline,
    gerrit,
    repoFor: (project: string | null) => repoUrl(config, project),
    cacheDir: paths.reposDir,
    gitLimit: pLimit(config.limits.gitConcurrency),
    publish: publishOptions(config),
    pageUrl: (id: string) => `${base}runs/${id}`,
  };
  const counters = new Counters();
  const worker = new WorkerPool(config.limits.concurrentRuns, {
    queue: storage.queue,
    runs: storage.runs,
    runStage: countingStages((job, run) => runStage(job, run, stageDeps), counters),
    log,
    workerId: `serve-${process.pid}`,
    crashAfter,
  });
  const app = await buildApp({
    runs: storage.runs,
    queue: storage.queue,
    evidence,
    counters,
    log,
    maxQueueDepth: config.server.maxQueueDepth,
    retryAfterSeconds: 30,
    publicBaseUrl: base,
    gerritWebUrl: config.gerrit.webUrl,
    hooks: {
      policy: eventPolicy(config),
      secret: config.gerrit.webhookSecret,
      allowed: sourceAllowList(config.gerrit.webhookAllowedCidrs),
    },
  });
  const close = async () => {
    await app.close();
    await worker.stop();
    evidence.close();
    signatures.close();
    storage.close();
  };
  return { app, worker, close };
}

/** The project's repository on Gerrit (fetched over authenticated HTTP into the mirror cache). */
function repoUrl(config: ServiceConfig, project: string | null): string {
  const { baseUrl, username, password } = config.gerrit;
  if (baseUrl === null || project === null)
    throw new DiagnosisError(
      'REPO_NOT_FOUND',
      `no repository known for project ${project ?? '(none)'}: configure gerrit.baseUrl`,
      {
        input: project ?? 'project',
      },
    );
  const url = new URL(`a/${project}`, baseUrl);
  if (username !== null) url.username = encodeURIComponent(username);
  if (password !== null) url.password = encodeURIComponent(password);
  return url.toString();
}
