export { junitAdapter } from './adapter.ts';
export { type ReportFile, readReportFile, reportFiles } from './files.ts';
export { environmentOf, listCases, toRawFailure } from './map.ts';
export { type ParsedJunit, parseJunit } from './parse.ts';
