import type { DiagnosisContext } from '../context/index.ts';
import { addUsage, emptyUsage } from '../engines/claude/index.ts';
import type { CheckFinding, DiagnosisDraft, Issue, Triage, Usage } from '../schemas/index.ts';

/** What the checker reads besides the draft. */
export interface CheckInput {
  ctx: DiagnosisContext;
  issue: Issue;
  triage: Triage;
}

/** The deterministic verdict of one failure (src/signals). */
export interface Triager {
  triage(issue: Issue, ctx: DiagnosisContext): Promise<Triage>;
}

/** An engine's answer for one failure; `draft` is null when it stopped without one (budget). */
export interface EngineResult {
  draft: DiagnosisDraft | null;
  usage: Usage;
  stopped: 'submitted' | 'budget';
}

/** A model or the rules: proposes a draft, and (a model) repairs it once against findings. */
export interface Engine {
  readonly name: 'rules' | 'model';
  readonly model: string | null;
  diagnose(issue: Issue, triage: Triage, ctx: DiagnosisContext): Promise<EngineResult>;
  repair?(issue: Issue, draft: DiagnosisDraft, findings: string): Promise<EngineResult>;
  /** A sub-diagnosis of one module's part of the causal chain (a model only). */
  delegate?(issue: Issue, triage: Triage, ctx: DiagnosisContext, module: ModuleShare): Promise<EngineResult>;
}

/** A module the causal chain crosses, with the chain's files in it. */
export interface ModuleShare {
  name: string;
  files: string[];
}

/** The evidence checker (src/check). */
export interface Checker {
  check(draft: DiagnosisDraft, input: CheckInput): Promise<CheckFinding[]>;
  degrade(
    draft: DiagnosisDraft,
    findings: readonly CheckFinding[],
    input: CheckInput,
  ): Promise<{ draft: DiagnosisDraft; degraded: boolean }>;
  describe(findings: readonly CheckFinding[]): string;
}

/** No tokens, no calls: what the rules engine costs. */
export const NO_USAGE: Usage = emptyUsage();

export { addUsage };
