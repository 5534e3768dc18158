import { listFindings } from "../../db/findings.js";
import { updateRun } from "../../db/runs.js";
import { listTurns } from "../../db/turns.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import type { PostedReview } from "../publish/post-review.js";
import { checkConclusion, renderCheckOutput } from "../render/render-check-output.js";
import { withConfigProblems } from "../render/with-config-problems.js";
import { renderSummary } from "../render/render-summary.js";
import { reviewState } from "../render/review-state.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { upsertSummaryComment } from "../publish/upsert-summary-comment.js";
import type { ReviewHead, ReviewInput, ReviewTurn } from "./review-turn.js";
import { appliedGuidelines } from "./applied-guidelines.js";
import { proposedChecks } from "./proposed-checks.js";

/**
 * The summary comment and the check run, both headed by the review's state (open findings, converged,
 * converging, stopped); only then the reviewed head moves.
 */
export async function finishReview(
  deps: PipelineDeps,
  turn: ReviewTurn,
  head: ReviewHead,
  input: ReviewInput,
  posted: PostedReview | undefined,
): Promise<void> {
  const { run, log } = turn;
  const { github, ref, config } = turn.ctx;
  const { ws } = head;
  const final = await listFindings(deps.db, run.id);
  const turns = await listTurns(deps.db, run.id);
  const stopped = budgetRefusal(spendOf(turns), config, "reviewer");
  const state = reviewState({
    findings: final,
    turns,
    lastReviewedSha: ws.headSha,
    failOn: config.review.fail_on,
    stopped,
  });
  const summary = renderSummary({
    findings: final,
    turns,
    lastReviewedSha: ws.headSha,
    notes: input.notes,
    failOn: config.review.fail_on,
    stopped,
    guidelines: appliedGuidelines(input.guidelines, config.guidelines.max_bytes),
    proposedChecks: await proposedChecks(deps, turn, head),
  });
  await Promise.all([
    upsertSummaryComment(deps.db, github, ref, run, summary),
    github.updateCheckRun(ref, input.checkRunId, {
      status: "completed",
      ...withConfigProblems(
        { conclusion: checkConclusion(final, config.review.fail_on), ...renderCheckOutput(final, input.notes, state) },
        turn.ctx.configProblems,
      ),
    }),
  ]);
  await updateRun(deps.db, run.id, { lastReviewedSha: ws.headSha });
  log.info(
    {
      reviewId: posted?.reviewId ?? "already posted",
      mode: ws.mode,
      headSha: ws.headSha,
      open: final.filter((f) => f.status === "open" || f.status === "fix-pushed").length,
      state: state?.state,
    },
    "review posted",
  );
}
