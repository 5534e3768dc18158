import { updateFinding } from "../../db/findings.js";
import type { Finding } from "../../db/schema.js";
import { findingId } from "../../domain/finding-id.js";
import { pullRequestAnchor } from "../../domain/pull-request-anchor.js";
import { ours } from "../publish/ours.js";
import { postReview, type PostedReview } from "../publish/post-review.js";
import { reviewMarker, shortSha } from "../../text/labels.js";
import { renderReviewBody } from "../render/render-review-body.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ReviewerVerdict } from "./ask-reviewer.js";
import { ignoredFindingPaths } from "./ignored-finding-paths.js";
import { placementDiff } from "./placement-diff.js";
import type { ReproducedFindings } from "./reproduce-findings.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";

/**
 * One review on GitHub: the open findings not posted yet inline where GitHub allows it, the rest in the
 * body, and each finding's comment recorded. A retried job whose earlier attempt already posted this
 * head's review, with nothing new since, posts nothing (undefined).
 */
export async function publishReview(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  verdict: ReviewerVerdict,
  { recorded, shown, heldBack }: ReproducedFindings,
): Promise<PostedReview | undefined> {
  const { run, log } = turn;
  const { github, ref, config } = turn.ctx;
  const { workspace, ws } = head;
  const bodyNotes = reviewBodyNotes(input, recorded.keptAsNotes, heldBack, ws.headSha);
  const toPost = recorded.ledger.filter((f) => f.status === "open" && f.reviewId === null);
  const alreadyPosted =
    turn.retry > 0 &&
    toPost.length === 0 &&
    recorded.resolved.length === 0 &&
    (await ours(github, github.listReviews(ref, run.prNumber))).some((r) => r.body.includes(reviewMarker(ws.headSha)));
  if (alreadyPosted) return undefined;
  const diff = await placementDiff(workspace, ws, input.diff.diff, toPost, recorded.renames, config.ignore.paths);
  const posted = await postReview({
    github,
    ref,
    pr: run.prNumber,
    headSha: ws.headSha,
    findings: toPost,
    diff,
    ignored: await ignoredFindingPaths(workspace, ws, diff, toPost, {
      globs: config.ignore.paths,
      // `review.ignore` (the older key) adds to the same list
      nameGlobs: !["ignore.paths", "review.ignore"].some((key) => turn.ctx.privateSettings.has(key)),
    }),
    maxComments: config.review.max_comments,
    reproductions: shown,
    log,
    renderBody: (inBody) =>
      renderReviewBody({
        headSha: ws.headSha,
        mode: ws.mode,
        from: ws.from,
        baseMerged: ws.baseMerged,
        summary: verdict.answer.summary,
        inBody,
        resolved: recorded.resolved,
        claimed: recorded.claimed,
        dropped: recorded.dropped,
        notes: bodyNotes,
      }),
  });
  await recordPosted(deps, run, toPost, posted, verdict.turnId);
  if (posted.refused) await recordReviewRefusal(deps, run, ws.headSha, posted.refused);
  return posted;
}

/** The review body's notes: the input's, the findings kept as notes on unchanged code, those the reproducers held back. */
function reviewBodyNotes(input: ReviewInput, kept: number, heldBack: string | undefined, headSha: string): string[] {
  return [
    ...input.notes,
    ...(kept > 0
      ? [
          `${kept} finding${kept === 1 ? "" : "s"} on code unchanged since the last review (${shortSha(input.since ?? headSha)}) ${kept === 1 ? "was" : "were"} kept as ${kept === 1 ? "a note" : "notes"} in the summary, not raised.`,
        ]
      : []),
    ...(heldBack ? [heldBack] : []),
  ];
}

/** Each posted finding's review and comment, and its `posted` event at the reviewer's turn. */
async function recordPosted(
  deps: PipelineDeps,
  run: ReviewTurn["run"],
  toPost: Finding[],
  posted: PostedReview,
  turnId: number | undefined,
): Promise<void> {
  for (const f of toPost) {
    const comment = posted.comments.get(f.number);
    await updateFinding(
      deps.db,
      run.id,
      f.number,
      { reviewId: posted.reviewId, commentId: comment?.id ?? null, commentNodeId: comment?.nodeId ?? null },
      {
        kind: "posted",
        actor: "reviewer",
        turnId: turnId ?? null,
        url: comment ? pullRequestAnchor.reviewComment(comment.id) : pullRequestAnchor.review(posted.reviewId),
      },
    );
  }
}

/** GitHub refused the review as first sent: kept for the operator page, with what it said and what moved into the body. */
async function recordReviewRefusal(
  deps: PipelineDeps,
  run: ReviewTurn["run"],
  headSha: string,
  refused: NonNullable<PostedReview["refused"]>,
): Promise<void> {
  await deps.refusals.refuse({
    kind: "review_refused",
    repositoryFullName: run.repositoryFullName,
    prNumber: run.prNumber,
    actor: "reviewer",
    reason: `GitHub refused the review at ${shortSha(headSha)} (${refused.github.slice(0, 200)}); moved into the body: ${refused.findings.map(findingId).join(", ") || "none"}`,
  });
}
