import type { Claim, DiagnosisDraft, MissingEvidence, Triage } from '../schemas/index.ts';
import { clip } from './findings.ts';
import type { CheckInput } from './input.ts';
import { categoryFits, defaultCategory } from './verdict.ts';

/** The triage's signals as claims, each citing its signal (and what the signal itself cites). */
export function signalClaims(triage: Triage): Claim[] {
  return triage.signals.map((s) => ({
    text: s.detail,
    cites: [{ kind: 'signal' as const, name: s.kind, detail: s.detail }, ...s.cites],
  }));
}

/** The triage's verdict and category, made consistent (a triage bug must not fail the degrade). */
export function triageVerdict(triage: Triage): Pick<DiagnosisDraft, 'verdict' | 'category'> {
  const category = categoryFits(triage.verdict, triage.category)
    ? triage.category
    : defaultCategory(triage.verdict);
  return { verdict: triage.verdict, category };
}

/** What would decide an undecided failure, and who can bring it. */
export function wouldDecide(input: CheckInput): MissingEvidence[] {
  const { issue, ctx } = input;
  return [
    {
      what: `where "${clip(issue.test.name, 60)}" first deviates from what it expects: log lines, a trace or a re-run result for "${clip(issue.summary, 80)}", cited by evidence id and line`,
      who: 'qa',
    },
    ctx.diff.length === 0
      ? {
          what: "this change's diff (no base revision was available), to tell whether it touches the failing path",
          who: 'ci_admin',
        }
      : { what: 'whether the code this change modified is on the failing path', who: 'change_owner' },
  ];
}

export function withMissing(
  list: readonly MissingEvidence[],
  more: readonly MissingEvidence[],
): MissingEvidence[] {
  const out = [...list];
  for (const m of more) if (!out.some((o) => o.what === m.what)) out.push(m);
  return out;
}

/** Claims not already stated (the rules engine states the signals itself). */
export function addClaims(first: readonly Claim[], then: readonly Claim[]): Claim[] {
  const out = [...first];
  for (const c of then) if (!out.some((o) => o.text === c.text)) out.push(c);
  return out;
}
