export { type CommentOptions, type CommentPlan, type Placement, planComments } from './comments.ts';
export { type EncodedFix, encodeFix, firstOverlap, linesOf, rangeProblem, type TextOf } from './fixes.ts';
export { clipBytes, PublishLimits } from './limits.ts';
export { clip, codeBlock, defang, inlineCode, inlineText, link } from './markdown.ts';
export { diagnosisDigest, markerLine, type PostedMarker, parseMarker } from './marker.ts';
export { gerritPatchset, gitPatchset, type PatchsetView } from './patchset.ts';
export {
  findPrior,
  type PublisherDeps,
  type PublishRequest,
  type PublishResult,
  parseDiagnosisRun,
  publishDiagnosis,
} from './publisher.ts';
export { type BuiltReview, buildReview, PublishOptions } from './review.ts';
export { renderSummary, type SummaryInput } from './summary.ts';
