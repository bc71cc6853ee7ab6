import { z } from 'zod';

/**
 * Allure 2 report data files, only the fields we read (allure2 `data/categories.json`,
 * `data/test-cases/<uid>.json`, `widgets/environment.json`; see shared/notes/allure.md).
 * Lenient: unknown fields pass, missing optional ones default.
 */
export type TreeNode = {
  uid: string;
  name: string;
  status?: string | undefined;
  children?: TreeNode[] | undefined;
};
export const TreeNode: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({
    uid: z.string(),
    name: z.string(),
    status: z.string().optional(),
    children: z.array(TreeNode).optional(),
  }),
);

export const CategoriesTree = z.object({ uid: z.string(), children: z.array(TreeNode).default([]) });
export type CategoriesTree = z.infer<typeof CategoriesTree>;

export const Attachment = z.object({
  uid: z.string(),
  name: z.string().nullish(),
  source: z.string(),
  type: z.string().nullish(),
});
export type Attachment = z.infer<typeof Attachment>;

export type Step = {
  name?: string | null | undefined;
  shouldDisplayMessage?: boolean | undefined;
  attachmentStep?: boolean | undefined;
  status?: string | null | undefined;
  statusMessage?: string | null | undefined;
  steps?: Step[] | undefined;
  attachments?: Attachment[] | undefined;
};
export const Step: z.ZodType<Step> = z.lazy(() =>
  z.object({
    name: z.string().nullish(),
    status: z.string().nullish(),
    statusMessage: z.string().nullish(),
    shouldDisplayMessage: z.boolean().optional(),
    attachmentStep: z.boolean().optional(),
    steps: z.array(Step).optional(),
    attachments: z.array(Attachment).optional(),
  }),
);

const Stage = z.object({
  steps: z.array(Step).default([]),
  attachments: z.array(Attachment).default([]),
});

export const TestCase = z.object({
  uid: z.string(),
  name: z.string(),
  fullName: z.string().nullish(),
  historyId: z.string().nullish(),
  status: z.string(),
  statusMessage: z.string().nullish(),
  statusTrace: z.string().nullish(),
  flaky: z.boolean().default(false),
  testStage: Stage.nullish(),
  parameters: z.array(z.object({ name: z.string(), value: z.string().nullish() })).default([]),
  extra: z
    .object({
      retries: z.array(z.object({ status: z.string(), statusDetails: z.string().nullish() })).default([]),
    })
    .default({ retries: [] }),
});
export type TestCase = z.infer<typeof TestCase>;

export const EnvironmentWidget = z.array(
  z.object({ name: z.string(), values: z.array(z.string()).default([]) }),
);

export const ExecutorsWidget = z.array(
  z.object({
    name: z.string().nullish(),
    type: z.string().nullish(),
    buildName: z.string().nullish(),
    buildUrl: z.string().nullish(),
    reportName: z.string().nullish(),
  }),
);
