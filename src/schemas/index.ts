export * from './diagnosis.ts';
export * from './facts.ts';
export * from './located.ts';
