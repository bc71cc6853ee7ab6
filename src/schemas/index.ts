export * from './facts.ts';
export * from './located.ts';
