import type { DiffImpact, Issue, VerifiedLocation } from '../../schemas/index.ts';
import type { LocationConfirmation } from '../../skill/index.ts';

const IMPACT_RANK: Record<DiffImpact['kind'], number> = {
  in_hunk: 0,
  in_function: 1,
  in_file: 2,
  untouched: 3,
  unknown: 3,
};
const LEVEL_RANK = { line: 0, function: 1, file: 2, need_evidence: 3 } as const;
const ROLE_RANK = { failure: 0, frame: 1, test: 2 } as const;

/**
 * Stage `confirm_location`: the candidate the diagnosis points at, at the level the locator
 * granted. A candidate the change touched comes first (it is where "caused by this change" can
 * be cited), then the failing frame before the frames between and the test, then the better level.
 */
export function confirmPlace(issue: Issue): {
  confirmation: LocationConfirmation;
  chosen: VerifiedLocation | null;
} {
  const usable = (issue.candidates ?? []).filter((c) => c.level !== 'need_evidence' && c.file !== null);
  const ranked = [...usable].sort(
    (a, b) =>
      IMPACT_RANK[a.diff_impact.kind] - IMPACT_RANK[b.diff_impact.kind] ||
      ROLE_RANK[a.reported.role] - ROLE_RANK[b.reported.role] ||
      LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
      a.reported.frame_index - b.reported.frame_index,
  );
  const chosen = ranked[0] ?? null;
  if (chosen === null) {
    return {
      chosen,
      confirmation: {
        place: { level: 'need_evidence', file: null, function: null, lines: null },
        reasons: ['no frame of this failure could be confirmed in the repository at the revision'],
      },
    };
  }
  const reasons = [
    `${chosen.reported.role} frame ${chosen.reported.frame_index} (${chosen.reported.file}${chosen.reported.line === null ? '' : `:${chosen.reported.line}`})`,
    `the locator granted ${chosen.level}`,
    `the change's impact there: ${chosen.diff_impact.kind.replace('_', ' ')}`,
  ];
  return {
    chosen,
    confirmation: {
      place: {
        level: chosen.level,
        file: chosen.file,
        function: chosen.function?.name ?? null,
        lines: chosen.level === 'line' ? chosen.lines : null,
      },
      reasons,
    },
  };
}
