import { z } from "zod";

const user = z.object({ login: z.string() }).nullish();
const repository = z.object({ id: z.number(), full_name: z.string(), clone_url: z.string() });

/** What onPullRequest reads of a pull_request.{opened,reopened,ready_for_review,synchronize,labeled,unlabeled} payload. */
export const pullRequestShape = z.object({
  action: z.string(),
  installation: z.object({ id: z.number() }),
  sender: z.object({ login: z.string(), type: z.string() }),
  repository,
  pull_request: z.object({
    number: z.number(),
    state: z.string(),
    title: z.string(),
    body: z.string().nullish(),
    user,
    base: z.object({ ref: z.string(), sha: z.string() }),
    head: z.object({
      ref: z.string(),
      sha: z.string(),
      // null when the fork was deleted
      repo: z.object({ full_name: z.string(), clone_url: z.string() }).nullish(),
    }),
    maintainer_can_modify: z.boolean().nullish(),
    draft: z.boolean().nullish(),
    updated_at: z.string().nullish(),
    labels: z.array(z.object({ name: z.string() })).nullish(),
  }),
});
