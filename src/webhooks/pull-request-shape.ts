import { z } from "zod";

const user = z.object({ login: z.string(), type: z.string().nullish() }).nullish();
const repository = z.object({ id: z.number(), full_name: z.string(), clone_url: z.string() });

// edited: only whether a field changed is read, never its old value (`{ from }`, which GitHub may send as null)
const changed = z.object({}).nullish();

/** What onPullRequest reads of a pull_request.{opened,reopened,ready_for_review,synchronize,(un)labeled,edited} payload. */
export const pullRequestShape = z.object({
  action: z.string(),
  /** edited: the fields the edit changed. */
  changes: z.object({ title: changed, body: changed, base: changed }).nullish(),
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
