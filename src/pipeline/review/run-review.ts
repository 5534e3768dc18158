// The review room: the review job as a step list (this file) — checkOutHead, stopAtBudget,
// gatherReviewInput, askReviewer, recordFindings, reproduceFindings, askSecondOpinion, publishReview,
// resolveFindingThreads, finishReview —
// each step in its own file sharing a ReviewTurn, and the reviewer's prompt (build-review-prompt and its
// sections), memory and answer format. It imports the rooms below: publish, render, checks, ledger,
// guidelines, workspace, job, sessions.

import type { JobAttempt } from "../../domain/job-attempt.js";
import type { RunJob } from "../../domain/run-job.js";
import { classifyFailure } from "../job/classify-failure.js";
import { ensureCheckRun } from "../publish/ensure-check-run.js";
import { codeBlock } from "../../text/code-block.js";
import { resolveFindingThreads } from "../publish/resolve-finding-threads.js";
import { askReviewer } from "./ask-reviewer.js";
import { askSecondOpinion } from "./ask-second-opinion.js";
import { checkOutHead } from "./check-out-head.js";
import { finishReview } from "./finish-review.js";
import { gatherReviewInput } from "./gather-review-input.js";
import { publishReview } from "./publish-review.js";
import { recordFindings } from "./record-findings.js";
import { reproduceFindings } from "./reproduce-findings.js";
import { reportSkip } from "./report-skip.js";
import type { ReviewTurn } from "./review-turn.js";
import { skipReason } from "./skip-reason.js";
import { stopAtBudget } from "./stop-at-budget.js";
import type { RunContext } from "../job/run-context.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";

/** Triggers that only ask whether a skipped head may now be reviewed (a label removed, the PR edited). */
const LOOK_AGAIN_TRIGGERS: ReadonlySet<string> = new Set(["unlabeled", "edited"]);

/**
 * A review job: decide whether to review, then run one reviewer turn and post it. Failures are reported
 * on the check run. True when a review was posted (auto-fix may follow).
 */
export async function runReview(
  deps: PipelineDeps,
  ctx: RunContext,
  job: RunJob,
  signal: AbortSignal,
  attempt: JobAttempt = { retry: 0, last: true },
): Promise<boolean> {
  const log = deps.log.child({ runId: ctx.run.id, role: "reviewer", deliveryId: job.deliveryId });
  // an earlier step of the same job may have reviewed, paused or closed the run
  const run = await ctx.current();
  if (!run || run.state === "closed") {
    log.info({ state: run?.state }, "run closed; nothing to review");
    return false;
  }
  // a label removed, or the title or base edited, on a PR whose head was reviewed already changes nothing
  if (LOOK_AGAIN_TRIGGERS.has(job.trigger) && run.lastReviewedSha === run.headSha) {
    log.info(
      { headSha: run.headSha, trigger: job.trigger },
      "this head was reviewed already; nothing to look at again",
    );
    return false;
  }
  const skip = await skipReason(deps, run, job, ctx.config, ctx.privateSettings);
  if (skip) {
    await reportSkip(deps, ctx, run, skip, log);
    return false;
  }
  const turn: ReviewTurn = { ctx, run, job, signal, log, retry: attempt.retry };
  try {
    return await review(deps, turn);
  } catch (error) {
    await reportFailure(turn, error, attempt.last);
    return false;
  }
}

/** The review's steps, in order; each says whether the review goes on. */
async function review(deps: PipelineDeps, turn: ReviewTurn): Promise<boolean> {
  const head = await checkOutHead(deps, turn);
  if (!head) return false;
  if (await stopAtBudget(deps, turn)) return false;
  const input = await gatherReviewInput(deps, turn, head);
  const verdict = await askReviewer(deps, turn, head, input);
  if (!verdict) return false;
  const recorded = await recordFindings(deps, turn, head, input, verdict);
  const reproduced = await reproduceFindings(deps, turn, head, input, verdict, recorded);
  const checked = await askSecondOpinion(deps, turn, head, input, reproduced);
  const posted = await publishReview(deps, turn, head, input, verdict, checked);
  const { github, ref } = turn.ctx;
  await resolveFindingThreads(github, ref, turn.run.prNumber, head.ws.headSha, recorded.resolved, turn.log);
  await finishReview(deps, turn, head, input, posted);
  return true;
}

/** A failed review on the head's check run, in words: "Retrying" (and thrown again) while retries are left. */
async function reportFailure(turn: ReviewTurn, error: unknown, lastAttempt: boolean): Promise<void> {
  const { run, log } = turn;
  const { github, ref } = turn.ctx;
  const decision = classifyFailure(error);
  log.warn({ err: error, retry: decision.retry && !lastAttempt }, "review failed");
  const checkRunId =
    turn.checkRunId ??
    (await ensureCheckRun(github, ref, run.headSha, {
      status: "in_progress",
      title: "Reviewing",
      summary: "Preparing the review.",
    }));
  if (decision.retry && !lastAttempt) {
    await github
      .updateCheckRun(ref, checkRunId, {
        status: "queued",
        title: "Retrying",
        summary: `${decision.title}. The review will be retried.`,
      })
      .catch(() => undefined);
    throw error;
  }
  await github.updateCheckRun(ref, checkRunId, {
    status: "completed",
    conclusion: "failure",
    title: decision.title,
    summary: `The review could not be completed.\n\n${codeBlock(decision.detail)}`,
  });
}
