import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { fitBody } from "../../github/fit-body.js";
import { ours } from "./ours.js";
import { sameBody, writeOnce } from "./write-once.js";

/** A reply in a review thread, made at most once: a lost answer may hide a reply of ours with the same text. */
export async function replyOnce(
  github: GitHubClient,
  ref: RepoRef,
  pr: number,
  commentId: number,
  body: string,
): Promise<void> {
  await writeOnce(
    () => github.replyToReviewComment(ref, pr, commentId, body).then(() => true),
    async () =>
      (await ours(github, github.listPullReviewComments(ref, pr))).some(
        (c) => c.inReplyToId === commentId && sameBody(c.body, fitBody(body)),
      )
        ? true
        : undefined,
  );
}
