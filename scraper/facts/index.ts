export { FactsBuilder, MAX_FACT_CHARS, MAX_STEP_FACTS } from './builder.ts';
export { classifyFailure } from './category.ts';
