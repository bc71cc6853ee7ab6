import type { CheckFinding, DiagnosisDraft, Triage, Verdict } from '../schemas/index.ts';
import { error } from './findings.ts';
import { isInfraPath, isTestPath } from './test-paths.ts';

/**
 * An environment failure never gets a business-code change: not as advice aimed at code, not as
 * other advice whose file is production code, not as a fix editing a file that is neither a
 * test nor the runner's setup (isInfraPath). It applies when the standing verdict or the category is
 * `environment`, and when the triage said environment and the draft only abstained.
 */
export function checkEnvironmentFix(draft: DiagnosisDraft, triage: Triage, verdict: Verdict): CheckFinding[] {
  const environment =
    verdict === 'environment' ||
    draft.category === 'environment' ||
    (triage.verdict === 'environment' && verdict === 'need_evidence');
  if (!environment) return [];
  const findings: CheckFinding[] = [];
  const change = draft.change;
  if (change?.target === 'code') {
    findings.push(error('code_fix_for_environment', 'change', 'an environment failure gets no code change'));
  } else if (change?.file != null && !isTestPath(change.file) && !isInfraPath(change.file)) {
    findings.push(
      error(
        'code_fix_for_environment',
        'change.file',
        `${change.file} is production code: an environment failure gets no code change`,
      ),
    );
  }
  draft.fix?.replacements.forEach((r, i) => {
    if (!isTestPath(r.path) && !isInfraPath(r.path))
      findings.push(
        error(
          'code_fix_for_environment',
          `fix.replacements.${i}`,
          `the fix edits ${r.path}: an environment failure gets no code change`,
        ),
      );
  });
  return findings;
}
