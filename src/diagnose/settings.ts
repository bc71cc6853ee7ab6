import { loadSignalsConfig, type Mask, masksFor } from '../signals/index.ts';
import { loadModuleMap, type ModuleMap } from '../skill/index.ts';

/** The project-dependent settings every pipeline reads from `config/`: signature masks and the module map. */
export interface PipelineSettings {
  /** A project's masks first, then the global ones (the service diagnoses many projects). */
  masks: (project: string | null) => readonly Mask[];
  modules: ModuleMap;
}

export async function loadPipelineSettings(): Promise<PipelineSettings> {
  const [signals, modules] = await Promise.all([loadSignalsConfig(), loadModuleMap()]);
  return { masks: (project) => masksFor(signals, project), modules };
}
