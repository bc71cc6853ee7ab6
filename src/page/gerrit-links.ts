import type { DiagnosisRun } from '../schemas/index.ts';
import { externalUrl } from './html.ts';

/**
 * Links back to Gerrit's PolyGerrit UI: the change at a patchset is `/c/{project}/+/{change}/{ps}`
 * and a file of it `/c/{project}/+/{change}/{ps}/{path}#{line}` (Gerrit "Review UI" URLs; the
 * project and the path keep their slashes, each segment is percent-encoded).
 */
export interface GerritLinks {
  /** The change at the run's patchset, or null without Gerrit or outside a change. */
  change: string | null;
  /** A file of the patchset, at a line when given; null when the change link is. */
  file(path: string, line?: number | null): string | null;
}

export function gerritLinks(run: DiagnosisRun, gerrit: { baseUrl: string } | undefined): GerritLinks {
  const base = gerrit === undefined ? null : externalUrl(gerrit.baseUrl);
  const { project, number, patchset } = run.change;
  if (base === null || project === null || number === null || patchset === null) {
    return { change: null, file: () => null };
  }
  const change = `${base.replace(/\/+$/, '')}/c/${segments(project)}/+/${number}/${patchset}`;
  return {
    change,
    file: (path, line) => {
      const clean = path.replace(/^\/+/, '');
      if (clean === '' || clean.split('/').some((s) => s === '..')) return null;
      const anchor = line === null || line === undefined ? '' : `#${line}`;
      return externalUrl(`${change}/${segments(clean)}${anchor}`);
    },
  };
}

function segments(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}
