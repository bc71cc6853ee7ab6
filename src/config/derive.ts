import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import { join } from 'node:path';
import type { ClaudeBudget } from '../engines/claude/budget.ts';
import { EventPolicy } from '../events/schema.ts';
import type { GerritHttpOptions } from '../gerrit/http.ts';
import type { PublishOptions } from '../publish/review.ts';
import { parseCidr, type ServiceConfig } from './schema.ts';

/**
 * The configuration in the shapes the stages already take, so the server wires them without
 * re-spelling any default.
 */

/** The event policy for the webhook; null when no CI account is named (the webhook is off). */
export function eventPolicy(config: ServiceConfig): EventPolicy | null {
  const events = config.gerrit.events;
  if (events.ciAccounts.length === 0 || events.selfAccount === null) return null;
  return EventPolicy.parse({
    ci_accounts: events.ciAccounts,
    self_account: events.selfAccount,
    verified_label: events.verifiedLabel,
    retry_command: events.retryCommand,
    report_url_pattern: events.reportUrlPattern,
    ...(events.projects === null ? {} : { projects: events.projects }),
    ...(events.branches === null ? {} : { branches: events.branches }),
  });
}

/** How reviews are posted (`buildReview`'s options). */
export function publishOptions(config: ServiceConfig): PublishOptions {
  return {
    tag: config.gerrit.tag,
    notify: config.gerrit.notify,
    fixSuggestions: config.gerrit.fixSuggestions,
    limits: { ...config.limits.review },
  };
}

/** `GerritClient` options; null when no Gerrit is configured (runs are diagnosed, not posted). */
export function gerritConnection(config: ServiceConfig): GerritHttpOptions | null {
  const { baseUrl, username, password, requestTimeoutMs, retries } = config.gerrit;
  if (baseUrl === null || username === null || password === null) return null;
  return { baseUrl, username, password, timeoutMs: requestTimeoutMs, retries };
}

export interface ModelSettings {
  engine: 'rules' | 'claude';
  /** Only for claude. */
  apiKey: string | null;
  baseURL: string | null;
  model: string;
  concurrency: number;
  budget: ClaudeBudget;
  repairBudget: ClaudeBudget;
  runTokens: number;
}

/** Which engine runs and with what: `auto` is claude exactly when an API key is configured. */
export function modelSettings(config: ServiceConfig): ModelSettings {
  const m = config.model;
  const engine = m.engine === 'auto' ? (m.apiKey === null ? 'rules' : 'claude') : m.engine;
  return {
    engine,
    apiKey: engine === 'claude' ? m.apiKey : null,
    baseURL: m.baseUrl,
    model: m.name,
    concurrency: m.concurrency,
    budget: { ...m.budget },
    repairBudget: { ...m.repairBudget },
    runTokens: m.runTokens,
  };
}

export interface StoragePaths {
  dataDir: string;
  /** Runs, stages, queue, posts. */
  runsDb: string;
  evidenceDir: string;
  signaturesDir: string;
  /** Bare mirrors of the projects' repositories. */
  reposDir: string;
}

/** Where the service keeps its data, all under `storage.dataDir`. */
export function storagePaths(config: ServiceConfig): StoragePaths {
  const dataDir = config.storage.dataDir;
  return {
    dataDir,
    runsDb: join(dataDir, 'runs.sqlite'),
    evidenceDir: join(dataDir, 'evidence'),
    signaturesDir: join(dataDir, 'signatures'),
    reposDir: join(dataDir, 'repos'),
  };
}

/**
 * Whether a client address is in the allowed CIDRs. IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.5`, as a dual-stack socket reports them) are checked as IPv4.
 */
export function sourceAllowList(cidrs: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (cidr === null) throw new Error(`not a CIDR: ${text}`);
    list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    try {
      return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
    } catch {
      return false;
    }
  };
}

/** Constant-time comparison of a presented secret with the configured one. */
export function secretMatches(presented: string | undefined, expected: string | null): boolean {
  if (expected === null || presented === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected)) && presented.length === expected.length;
}
