import { z } from "zod";

/** What onReviewComment reads of a pull_request_review_comment.created payload. */
export const reviewCommentShape = z.object({
  installation: z.object({ id: z.number() }).nullish(),
  repository: z.object({ id: z.number(), full_name: z.string(), clone_url: z.string() }),
  pull_request: z.object({ number: z.number() }),
  comment: z.object({
    id: z.number(),
    body: z.string().nullish(),
    /** The thread's first comment, on a reply. */
    in_reply_to_id: z.number().nullish(),
    user: z.object({ login: z.string(), id: z.number(), type: z.string() }).nullish(),
  }),
});
