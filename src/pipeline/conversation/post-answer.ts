import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { ours } from "../publish/ours.js";
import { writeOnce } from "../publish/write-once.js";

/**
 * The bot's answer in a review thread, posted at most once: it carries the answered comment's marker,
 * and a reply of ours with that marker (an earlier attempt of this job, or a lost answer) is taken as
 * posted. Returns the reply's id.
 */
export async function postThreadAnswer(
  github: GitHubClient,
  ref: RepoRef,
  pr: number,
  threadId: number,
  body: string,
  marker: string,
): Promise<number> {
  const landed = async () =>
    (await ours(github, github.listPullReviewComments(ref, pr))).find((c) => c.body.includes(marker))?.id;
  return (
    (await landed()) ??
    (await writeOnce(() => github.replyToReviewComment(ref, pr, threadId, `${body}\n\n${marker}`), landed))
  );
}

/** The bot's answer in the PR's conversation, posted at most once (see postThreadAnswer). */
export async function postIssueAnswer(
  github: GitHubClient,
  ref: RepoRef,
  pr: number,
  body: string,
  marker: string,
): Promise<number> {
  const landed = async () =>
    (await ours(github, github.listIssueComments(ref, pr))).find((c) => c.body.includes(marker))?.id;
  return (
    (await landed()) ?? (await writeOnce(() => github.createIssueComment(ref, pr, `${body}\n\n${marker}`), landed))
  );
}
