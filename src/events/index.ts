export { decideOnEvent, type EventLog } from './decide.ts';
export { accountName, findReportUrl, hasCommandLine, isAccount, outsideAllowLists } from './match.ts';
export * from './schema.ts';
