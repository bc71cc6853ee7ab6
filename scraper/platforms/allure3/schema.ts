import { z } from 'zod';

/**
 * The Allure 3 "Awesome" report files we read (npm `allure` 3.18, @allurereport/plugin-awesome:
 * `generators.js`, `categories.js`, `converters.js`). Only fields used, all lenient: the
 * format is young and plugins add fields freely.
 */

/** A node of `widgets/categories.json`: category, message group, other grouping, or a test ("tr"). */
export const CategoryNode = z.looseObject({
  id: z.string(),
  type: z.string(),
  name: z.string().catch(''),
  childrenIds: z.array(z.string()).optional(),
  status: z.string().optional(),
});
export type CategoryNode = z.infer<typeof CategoryNode>;

/** `widgets/categories.json`: what the #categories page draws (Allure 2's has `items` instead). */
export const CategoriesWidget = z.looseObject({
  roots: z.array(z.string()),
  nodes: z.record(z.string(), CategoryNode),
});
export type CategoriesWidget = z.infer<typeof CategoriesWidget>;

/** `widgets/allure_environment.json`: environment.properties of the results, one entry per key. */
export const EnvironmentWidget = z.array(
  z.looseObject({ name: z.string(), values: z.array(z.coerce.string()).catch([]) }),
);
export type EnvironmentWidget = z.infer<typeof EnvironmentWidget>;

/** `widgets/variables.json`: allurerc `variables`, shown in the report header. */
export const VariablesWidget = z.record(z.string(), z.coerce.string()).catch({});
export type VariablesWidget = z.infer<typeof VariablesWidget>;

/** `summary.json`: only the totals, to tell an empty report from one without failures. */
export const SummaryFile = z.looseObject({
  stats: z.looseObject({ total: z.number().catch(0) }).catch({ total: 0 }),
});
export type SummaryFile = z.infer<typeof SummaryFile>;

export const TestError = z.looseObject({
  message: z.string().optional(),
  trace: z.string().optional(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
});
export type TestError = z.infer<typeof TestError>;

export const AttachmentLink = z.looseObject({
  id: z.string().optional(),
  ext: z.string().optional(),
  contentType: z.string().optional(),
  name: z.string().optional(),
  originalFileName: z.string().optional(),
  missed: z.boolean().optional(),
});
export type AttachmentLink = z.infer<typeof AttachmentLink>;

export const AttachmentItem = z.looseObject({ type: z.literal('attachment'), link: AttachmentLink });
export type AttachmentItem = z.infer<typeof AttachmentItem>;

const stepShape = {
  type: z.literal('step'),
  name: z.string().catch(''),
  status: z.string().optional(),
  message: z.string().optional(),
  trace: z.string().optional(),
  hasSimilarErrorInSubSteps: z.boolean().optional(),
};

export interface TestStep extends z.infer<z.ZodObject<typeof stepShape>> {
  steps?: Array<TestStep | AttachmentItem | { type: string }> | undefined;
}

export const TestStep: z.ZodType<TestStep> = z.looseObject({
  ...stepShape,
  get steps() {
    return z.array(z.union([TestStep, AttachmentItem, z.looseObject({ type: z.string() })])).optional();
  },
});

export const RetryResult = z.looseObject({
  status: z.string().catch('unknown'),
  error: TestError.optional(),
});
export type RetryResult = z.infer<typeof RetryResult>;

/** `data/test-results/<id>.json` (plugin-awesome `convertTestResult` plus retries, categories…). */
export const TestResult = z.looseObject({
  id: z.string(),
  name: z.string().catch(''),
  fullName: z.string().optional(),
  status: z.string().catch('unknown'),
  flaky: z.boolean().catch(false),
  duration: z.number().optional(),
  error: TestError.optional(),
  labels: z.array(z.looseObject({ name: z.string(), value: z.string().optional() })).catch([]),
  /** What the UI's Labels section lists: labels grouped by name, in first-seen order. */
  groupedLabels: z.record(z.string(), z.array(z.string())).optional(),
  parameters: z.array(z.looseObject({ name: z.string(), value: z.coerce.string().catch('') })).catch([]),
  steps: z.array(z.union([TestStep, AttachmentItem, z.looseObject({ type: z.string() })])).catch([]),
  retries: z.array(RetryResult).catch([]),
  attachments: z.array(AttachmentItem).catch([]),
});
export type TestResult = z.infer<typeof TestResult>;
