export { findSymbol } from './find-symbol.ts';
export { fileDiffTool } from './get-file-diff.ts';
export { describeIssue, findIssue, getIssueFacts } from './get-issue-facts.ts';
export { LIMITS } from './limits.ts';
export { listChangeFiles } from './list-change-files.ts';
export { readEvidenceTool, referencedEvidence } from './read-evidence.ts';
export { readFile } from './read-file.ts';
export { type ScanHit, type ScanResult, scanFiles } from './scan.ts';
export { backtrackingRisk, lineMatcher, searchCode } from './search-code.ts';
export { clipLine, numberLines, splitLines, takeWithin } from './text.ts';
export { defineTool, type JsonObject, type JsonValue, type ReadTool, toolRefusal } from './tool.ts';
export {
  inputSchema,
  readTools,
  type ToolDefinition,
  type ToolOutcome,
  type Toolset,
  type ToolsetOptions,
  toolDefinition,
  toolset,
} from './toolset.ts';
