import type { InlineComment } from "../../github/github-client.js";
import { GitHubError } from "../../github/github-error.js";
import { findingId } from "../../domain/finding-id.js";
import type { ReviewTarget } from "./create-review-once.js";
import { ours } from "./ours.js";
import type { PlannedComment } from "./plan-review.js";

/**
 * After GitHub refused a review as a whole (422): which of its inline comments GitHub takes and which
 * it refuses, each asked alone in a PENDING review (seen by nobody, deleted at once), each refusal
 * logged with GitHub's words. Both lists keep the order of `inline`.
 */
export async function findRefusedComments(
  target: ReviewTarget,
  inline: PlannedComment[],
): Promise<{ taken: PlannedComment[]; refused: PlannedComment[] }> {
  const { github, ref, pr } = target;
  // GitHub allows one pending review per author: clear a leftover of ours (a crashed attempt) first.
  for (const r of await ours(github, github.listReviews(ref, pr)))
    if (r.state === "PENDING") await github.deletePendingReview(ref, pr, r.id);
  const taken: PlannedComment[] = [];
  const refused: PlannedComment[] = [];
  for (const item of inline) {
    const refusal = await refusalOf(target, item.comment);
    if (refusal === undefined) taken.push(item);
    else {
      target.log.warn(
        {
          pr,
          finding: findingId(item.finding.number),
          path: item.comment.path,
          line: item.comment.line,
          github: refusal,
        },
        "GitHub refuses an inline comment; it goes into the review body",
      );
      refused.push(item);
    }
  }
  return { taken, refused };
}

/**
 * Whether GitHub takes one inline comment, asked in a PENDING review (seen by its author only) that
 * is deleted at once. Returns GitHub's refusal, or undefined when it takes the comment.
 */
async function refusalOf(target: ReviewTarget, comment: InlineComment): Promise<string | undefined> {
  const { github, ref, pr } = target;
  try {
    const { id } = await github.createReview(ref, pr, {
      commitId: target.headSha,
      body: "",
      comments: [comment],
      pending: true,
    });
    await github.deletePendingReview(ref, pr, id);
    return undefined;
  } catch (error) {
    if (error instanceof GitHubError && error.kind === "unprocessable") return error.message;
    throw error;
  }
}
