import type { Logger } from "pino";
import type { Finding } from "../../db/schema.js";
import { ours } from "./ours.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { GitHubError } from "../../github/github-error.js";
import type { DiffIndex } from "../../github/parse-diff.js";
import { findingId } from "../../domain/finding-id.js";
import { findingMarkerPattern } from "../../text/labels.js";
import type { ShownReproduction } from "../render/render-reproduction.js";
import { createReviewOnce } from "./create-review-once.js";
import { findRefusedComments } from "./find-refused-comments.js";
import { planReview, type PlannedComment } from "./plan-review.js";

export interface PostReviewInput {
  github: GitHubClient;
  ref: RepoRef;
  pr: number;
  headSha: string;
  /** Open findings not yet on GitHub. */
  findings: Finding[];
  /** The PR's diff as GitHub shows it (merge-base..head): only its lines take inline comments. */
  diff: DiffIndex;
  maxComments: number;
  /** The findings' changed files `ignore.paths` left out of `diff`, with the glob when known. */
  ignored?: ReadonlyMap<string, string | undefined>;
  /** Each finding's reproducer run on this head, when the app ran one (shown in its comment). */
  reproductions?: ReadonlyMap<number, ShownReproduction>;
  /** Renders the review body from the findings that could not be inline. */
  renderBody: (inBody: { finding: Finding; reason: string }[]) => string;
  log: Logger;
}

export interface PostedReview {
  reviewId: number;
  /** Finding number → its inline comment. */
  comments: Map<number, { id: number; nodeId: string }>;
  inBody: { finding: Finding; reason: string }[];
  /** When GitHub refused the review as first sent (422): what it said, and the findings it would not take inline. */
  refused?: { github: string; findings: number[] };
}

/**
 * Posts one review (event COMMENT): findings on diff lines inline (with a suggestion block when the
 * replacement fits the lines), the rest in the body. Comments an earlier attempt already posted are
 * recognised by their hidden marker and not posted again. On a 422 the refused comments are found in
 * pending reviews (invisible, deleted at once) and moved into the body, and the rest still go out in
 * one review: one review per turn, nothing dropped silently, each refusal logged with GitHub's words.
 */
export async function postReview(input: PostReviewInput): Promise<PostedReview> {
  const { github, ref, pr } = input;
  const already = await earlierComments(github, ref, pr);
  const {
    posted: comments,
    inline,
    inBody,
  } = planReview(input.findings, input.diff, input.maxComments, already, input.ignored, input.reproductions);

  let posting = inline;
  let reviewId: number;
  let refusal: PostedReview["refused"];
  try {
    reviewId = await sendReview(input, inBody, posting);
  } catch (error) {
    if (!(error instanceof GitHubError) || error.kind !== "unprocessable" || inline.length === 0) throw error;
    // GitHub refused the review as a whole. Still exactly one review: find the refused comments in
    // PENDING reviews (seen by nobody, deleted at once), move them into the body, post the rest.
    input.log.warn(
      { pr, headSha: input.headSha, github: error.message },
      "GitHub refused the review; finding the refused comments",
    );
    const { taken, refused } = await findRefusedComments(input, inline);
    for (const item of refused)
      inBody.push({ finding: item.finding, reason: "GitHub refused it as an inline comment" });
    posting = taken;
    refusal = { github: error.message, findings: refused.map((item) => item.finding.number) };
    reviewId = await sendReview(input, inBody, posting);
  }
  if (posting.length > 0) {
    for (const c of await github.listReviewComments(ref, pr, reviewId)) {
      const marker = findingMarkerPattern().exec(c.body)?.[1];
      const match = marker && posting.find((i) => findingId(i.finding.number) === marker);
      if (match) comments.set(match.finding.number, { id: c.id, nodeId: c.nodeId });
    }
  }
  return { reviewId, comments, inBody, ...(refusal ? { refused: refusal } : {}) };
}

/** Our inline comments already on the PR (not replies), by the finding marker they carry. */
async function earlierComments(
  github: GitHubClient,
  ref: RepoRef,
  pr: number,
): Promise<Map<string, { id: number; nodeId: string }>> {
  const already = new Map<string, { id: number; nodeId: string }>();
  for (const c of await ours(github, github.listPullReviewComments(ref, pr))) {
    const marker = findingMarkerPattern().exec(c.body)?.[1];
    if (marker && !c.inReplyToId) already.set(marker, { id: c.id, nodeId: c.nodeId });
  }
  return already;
}

/** The review with this body and these inline comments, created once; its id. */
async function sendReview(
  input: PostReviewInput,
  inBody: { finding: Finding; reason: string }[],
  posting: PlannedComment[],
): Promise<number> {
  const { id } = await createReviewOnce(
    input,
    input.renderBody(inBody),
    posting.map((i) => i.comment),
  );
  return id;
}
