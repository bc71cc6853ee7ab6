import { z } from 'zod';
import { LocationRole } from './common.ts';
import { LocateRun, VerifiedLocation } from './located.ts';

/**
 * The facts JSON: what a test report shows, one issue per failure. Facts only — no root cause,
 * no fix (shared/DESIGN.md "Facts JSON"). Large material (traces, logs, page HTML) is kept in
 * the evidence store and referenced by id, so a 1,000-failure report stays small.
 */

export const Platform = z.enum(['allure2', 'allure3', 'junit', 'generic']);
export type Platform = z.infer<typeof Platform>;

export const ScrapeMode = z.enum(['dom', 'data', 'file']);
export type ScrapeMode = z.infer<typeof ScrapeMode>;

/** Evidence ids are content addresses: `ev_` + the first 24 hex digits of the sha256. */
export const EvidenceId = z.string().regex(/^ev_[0-9a-f]{24}$/);
export type EvidenceId = z.infer<typeof EvidenceId>;

export const FactType = z.enum([
  'status',
  'error',
  'message',
  'trace',
  'expected',
  'actual',
  'operation',
  'step',
  'attachment',
  'log',
  'parameter',
  'label',
  'retry',
  'flaky',
  'duration',
  'report_category',
  'environment',
]);
export type FactType = z.infer<typeof FactType>;

export const Fact = z.object({
  type: FactType,
  /** Short, single value; long text is truncated here and kept whole in the evidence. */
  value: z.string(),
  /** Optional qualifier, e.g. the attachment or environment variable name. */
  name: z.string().optional(),
  evidence: EvidenceId.optional(),
  truncated: z.boolean().optional(),
});
export type Fact = z.infer<typeof Fact>;

export { LocationRole } from './common.ts';

export const Language = z.enum(['java', 'python', 'javascript', 'go', 'unknown']);
export type Language = z.infer<typeof Language>;

export const Location = z.object({
  role: LocationRole,
  /** Normalised path (forward slashes, no file:// or drive prefix); CI workspace prefixes kept for the locator. */
  file: z.string(),
  line: z.number().int().positive().nullable(),
  column: z.number().int().positive().nullable().optional(),
  function: z.string().nullable(),
  snippet: z.string().nullable(),
  language: Language,
  /** Library or runtime frame (node_modules, site-packages, java.*, GOROOT …): not project code. */
  library: z.boolean(),
  /** The path as the report printed it, when normalisation changed it. */
  raw_file: z.string().optional(),
  /** Index of the frame in its trace, 0 = innermost/top as printed. */
  frame_index: z.number().int().nonnegative(),
});
export type Location = z.infer<typeof Location>;

/**
 * Build failures (compilation, dependency resolution) are told apart from test failures, because
 * they take a different channel in later stages.
 */
export const IssueCategory = z.enum([
  'compilation_error',
  'dependency_resolution',
  'test_assertion',
  'test_error',
  'test_timeout',
  'unknown',
]);
export type IssueCategory = z.infer<typeof IssueCategory>;

export const TestIdentity = z.object({
  name: z.string(),
  full_name: z.string().nullable(),
  /** Stable across report regenerations (Allure historyId or fullName); uids are not. */
  key: z.string(),
});
export type TestIdentity = z.infer<typeof TestIdentity>;

export const Issue = z.object({
  id: z.string(),
  category: IssueCategory,
  status: z.string(),
  summary: z.string(),
  test: TestIdentity,
  /** The level-3 page of this failure, openable by an engineer. */
  url: z.string(),
  /** How the scraper reached it: level-1 and level-2 titles, then the test. */
  reached_by: z.array(z.string()),
  facts: z.array(Fact),
  locations: z.array(Location),
  warnings: z.array(z.string()),
  /** Raw material of the page (HTML in DOM mode, JSON in data mode); differs by mode by nature. */
  source_evidence: EvidenceId.optional(),
  /** Added by the locator: `locations` re-anchored at the revision under review. */
  candidates: z.array(VerifiedLocation).optional(),
});
export type Issue = z.infer<typeof Issue>;

export const Run = z.object({
  repository: z.string().nullable(),
  change_id: z.string().nullable(),
  patchset: z.number().int().positive().nullable(),
  revision_sha: z.string().nullable(),
  report_url: z.string(),
  platform: Platform,
  mode: ScrapeMode,
  scraped_at: z.string(),
  /** Environment the report states (runner, OS, versions): only what the report shows. */
  environment: z.array(Fact),
  warnings: z.array(z.string()),
  /**
   * Keys of the tests that passed in this run (issue test keys), where the report lists them:
   * fed into the signature history, a rerun that passed is what shows a flip at one revision.
   */
  passed_tests: z.array(z.string()).optional(),
});
export type Run = z.infer<typeof Run>;

export const FactsDocument = z.object({
  schema_version: z.literal(1),
  run: Run,
  issues: z.array(Issue),
  /** Present once the locator has run: against what it checked the locations. */
  located: LocateRun.optional(),
});
export type FactsDocument = z.infer<typeof FactsDocument>;
