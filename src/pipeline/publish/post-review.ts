import type { Logger } from "pino";
import type { Finding } from "../../db/schema.js";
import { ours } from "./ours.js";
import type { GitHubClient, InlineComment, RepoRef } from "../../github/github-client.js";
import { GitHubError } from "../../github/github-error.js";
import type { DiffIndex } from "../../github/parse-diff.js";
import { canSuggest, placeFinding, type BodyReason } from "../../github/place-finding.js";
import { findingId } from "../../domain/finding-id.js";
import { fitBody } from "../../github/fit-body.js";
import { findingMarkerPattern, reviewMarker } from "../render/labels.js";
import { sameBody, writeOnce } from "./write-once.js";
import { renderFindingComment } from "../render/render-finding-comment.js";

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
  /** Renders the review body from the findings that could not be inline. */
  renderBody: (inBody: { finding: Finding; reason: string }[]) => string;
  log: Logger;
}

export interface PostedReview {
  reviewId: number;
  /** Finding number → its inline comment. */
  comments: Map<number, { id: number; nodeId: string }>;
  inBody: { finding: Finding; reason: string }[];
}

const REASON_TEXT: Record<BodyReason, string> = {
  "no-line": "no line given",
  "file-not-in-diff": "file not changed in this PR",
  "line-not-in-diff": "line not part of the diff",
  "deleted-file": "file deleted in this PR",
  binary: "binary file",
};

const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/**
 * Posts one review (event COMMENT): findings on diff lines inline (with a suggestion block when the
 * replacement fits the lines), the rest in the body. Comments an earlier attempt already posted are
 * recognised by their hidden marker and not posted again. On a 422 the refused comments are found in
 * pending reviews (invisible, deleted at once) and moved into the body, and the rest still go out in
 * one review: one review per turn, nothing dropped silently, each refusal logged with GitHub's words.
 */
export async function postReview(input: PostReviewInput): Promise<PostedReview> {
  let reviewId: number | undefined;
  const { github, ref, pr } = input;
  const comments = new Map<number, { id: number; nodeId: string }>();
  const already = new Map<string, { id: number; nodeId: string }>();
  for (const c of await ours(github, github.listPullReviewComments(ref, pr))) {
    const marker = findingMarkerPattern().exec(c.body)?.[1];
    if (marker && !c.inReplyToId) already.set(marker, { id: c.id, nodeId: c.nodeId });
  }

  const inline: { finding: Finding; comment: InlineComment }[] = [];
  const inBody: { finding: Finding; reason: string }[] = [];
  const ordered = [...input.findings].sort(
    (a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3) || a.number - b.number,
  );
  for (const finding of ordered) {
    const posted = already.get(findingId(finding.number));
    if (posted) {
      comments.set(finding.number, posted);
      continue;
    }
    const location = {
      path: finding.path ?? "",
      line: finding.line ?? undefined,
      endLine: finding.endLine ?? undefined,
    };
    const placement = placeFinding(input.diff, location);
    if (placement.kind === "body") {
      inBody.push({ finding, reason: REASON_TEXT[placement.reason] });
      continue;
    }
    if (inline.length >= input.maxComments) {
      inBody.push({ finding, reason: "over the inline comment limit" });
      continue;
    }
    const suggestion = finding.suggestion !== null && canSuggest(placement, location) ? finding.suggestion : undefined;
    inline.push({
      finding,
      comment: {
        path: placement.path,
        line: placement.line,
        startLine: placement.startLine,
        side: "RIGHT",
        body: renderFindingComment(finding, suggestion),
      },
    });
  }

  let posting = inline;
  try {
    ({ id: reviewId } = await createReviewOnce(
      input,
      input.renderBody(inBody),
      posting.map((i) => i.comment),
    ));
  } catch (error) {
    if (!(error instanceof GitHubError) || error.kind !== "unprocessable" || inline.length === 0) throw error;
    // GitHub refused the review as a whole. Still exactly one review: find the refused comments in
    // PENDING reviews (seen by nobody, deleted at once), move them into the body, post the rest.
    input.log.warn(
      { pr, headSha: input.headSha, github: error.message },
      "GitHub refused the review; finding the refused comments",
    );
    posting = [];
    // GitHub allows one pending review per author: clear a leftover of ours (a crashed attempt) first.
    for (const r of await ours(github, github.listReviews(ref, pr)))
      if (r.state === "PENDING") await github.deletePendingReview(ref, pr, r.id);
    for (const item of inline) {
      const refusal = await refusalOf(input, item.comment);
      if (refusal === undefined) posting.push(item);
      else {
        input.log.warn(
          {
            pr,
            finding: findingId(item.finding.number),
            path: item.comment.path,
            line: item.comment.line,
            github: refusal,
          },
          "GitHub refuses an inline comment; it goes into the review body",
        );
        inBody.push({ finding: item.finding, reason: "GitHub refused it as an inline comment" });
      }
    }
    ({ id: reviewId } = await createReviewOnce(
      input,
      input.renderBody(inBody),
      posting.map((i) => i.comment),
    ));
  }
  if (posting.length > 0) {
    for (const c of await github.listReviewComments(ref, pr, reviewId!)) {
      const marker = findingMarkerPattern().exec(c.body)?.[1];
      const match = marker && posting.find((i) => findingId(i.finding.number) === marker);
      if (match) comments.set(match.finding.number, { id: c.id, nodeId: c.nodeId });
    }
  }
  return { reviewId: reviewId!, comments, inBody };
}

/**
 * Creates the review once: when GitHub's answer is lost, a review of ours carrying this head's review
 * marker and the same body means it landed (its inline comments are then found by listReviewComments);
 * only when none is there is it posted once more.
 */
async function createReviewOnce(
  input: PostReviewInput,
  body: string,
  comments: InlineComment[],
): Promise<{ id: number }> {
  const { github, ref, pr, headSha } = input;
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
        input.log.warn(
          { pr, headSha, reviewId: landed.id },
          "GitHub's answer to the review was lost, but the review landed; not posting it again",
        );
      return landed ? { id: landed.id } : undefined;
    },
  );
}

/**
 * Whether GitHub takes one inline comment, asked in a PENDING review (seen by its author only) that
 * is deleted at once. Returns GitHub's refusal, or undefined when it takes the comment.
 */
async function refusalOf(input: PostReviewInput, comment: InlineComment): Promise<string | undefined> {
  const { github, ref, pr } = input;
  try {
    const { id } = await github.createReview(ref, pr, {
      commitId: input.headSha,
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
