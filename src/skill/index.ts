export {
  DEFAULT_SKILL_DIR,
  loadSkill,
  parseStage,
  SKILL_TOOLS,
  type Skill,
  type SkillStage,
} from './load.ts';
export {
  chainModules,
  conventionalModule,
  DEFAULT_MODULES_PATH,
  loadModuleMap,
  type ModuleMap,
  ModuleMapFile,
  moduleMap,
} from './modules.ts';
export * from './schemas.ts';
