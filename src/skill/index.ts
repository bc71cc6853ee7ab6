export {
  DEFAULT_SKILL_DIR,
  loadSkill,
  parseStage,
  SKILL_TOOLS,
  type Skill,
  type SkillStage,
} from './load.ts';
export * from './schemas.ts';
