import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { Database } from "../../db/database.js";
import { listFindings } from "../../db/findings.js";
import type { Run } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import { renderSummary } from "../render/render-summary.js";
import type { ReviewStateInput } from "../render/review-state.js";
import { upsertSummaryComment } from "./upsert-summary-comment.js";

/**
 * The summary comment as the ledger says now, between reviews (after a fix, a ruling, a dismissal, a
 * refused review): the run's last reviewed head, and `stopped` when the PR's budget is spent. Returns
 * what it rendered, for a check run that must say the same.
 */
export async function refreshSummary(
  db: Database,
  github: GitHubClient,
  ref: RepoRef,
  run: Run,
  config: RepoConfig,
): Promise<ReviewStateInput> {
  const turns = await listTurns(db, run.id);
  const input: ReviewStateInput = {
    findings: await listFindings(db, run.id),
    turns,
    lastReviewedSha: run.lastReviewedSha,
    failOn: config.review.fail_on,
    stopped: budgetRefusal(spendOf(turns), config, "reviewer"),
  };
  await upsertSummaryComment(db, github, ref, run, renderSummary(input));
  return input;
}
