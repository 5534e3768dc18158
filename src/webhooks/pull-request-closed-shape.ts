import { z } from "zod";

/** What onPullRequestClosed reads of a pull_request.closed payload. */
export const pullRequestClosedShape = z.object({
  repository: z.object({ id: z.number() }),
  pull_request: z.object({
    number: z.number(),
    merged: z.boolean().nullish(),
    merged_at: z.string().nullish(),
    merged_by: z.object({ login: z.string() }).nullish(),
  }),
});
