import { z } from "zod";

/** What onIssueComment reads of an issue_comment.created payload (no installation or no pull_request: not ours, ignored quietly). */
export const issueCommentShape = z.object({
  installation: z.object({ id: z.number() }).nullish(),
  repository: z.object({ id: z.number(), full_name: z.string(), clone_url: z.string() }),
  issue: z.object({
    number: z.number(),
    pull_request: z.object({}).nullish(),
  }),
  comment: z.object({
    id: z.number(),
    body: z.string().nullish(),
    user: z.object({ login: z.string(), type: z.string() }).nullish(),
  }),
});
