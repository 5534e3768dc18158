import type { Logger } from "pino";
import type { GitHubClient, InlineComment, RepoRef } from "../../github/github-client.js";
import { fitBody } from "../../github/fit-body.js";
import { reviewMarker } from "../../text/labels.js";
import { ours } from "./ours.js";
import { sameBody, writeOnce } from "./write-once.js";

/** The pull request head a review is posted on, and the log it reports to. */
export interface ReviewTarget {
  github: GitHubClient;
  ref: RepoRef;
  pr: number;
  headSha: string;
  log: Logger;
}

/**
 * Creates the review once: when GitHub's answer is lost, a review of ours carrying this head's review
 * marker and the same body means it landed (its inline comments are then found by listReviewComments);
 * only when none is there is it posted once more.
 */
export async function createReviewOnce(
  target: ReviewTarget,
  body: string,
  comments: InlineComment[],
): Promise<{ id: number }> {
  const { github, ref, pr, headSha } = target;
  const marker = reviewMarker(headSha);
  const sent = fitBody(body);
  return writeOnce(
    () => github.createReview(ref, pr, { commitId: headSha, body, comments }),
    async () => {
      const mine = (await ours(github, github.listReviews(ref, pr))).filter(
        (r) => r.state !== "PENDING" && r.body.includes(marker) && sameBody(r.body, sent),
      );
      const landed = mine.at(-1);
      if (landed)
        target.log.warn(
          { pr, headSha, reviewId: landed.id },
          "GitHub's answer to the review was lost, but the review landed; not posting it again",
        );
      return landed ? { id: landed.id } : undefined;
    },
  );
}
