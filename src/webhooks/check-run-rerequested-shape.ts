import { z } from "zod";

/** What onCheckRunRerequested reads of a check_run.rerequested payload. */
export const checkRunRerequestedShape = z.object({
  repository: z.object({ id: z.number() }),
  sender: z.object({ login: z.string(), type: z.string() }),
  check_run: z.object({
    name: z.string(),
    head_sha: z.string(),
    pull_requests: z.array(z.object({ number: z.number() })),
  }),
});
