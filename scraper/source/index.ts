export { parseDataFile } from './json.ts';
export { type Fetched, type HttpOptions, openReportSource, type ReportSource } from './report-source.ts';
export { type ServedDir, serveDir } from './serve-dir.ts';
