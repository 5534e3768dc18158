import type { RepoConfig } from "../../config/repo-config.js";
import type { Database } from "../../db/database.js";
import { listFindings } from "../../db/findings.js";
import type { Run } from "../../db/schema.js";
import { listTurns } from "../../db/turns.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { CHECK_NAME } from "../ensure-check-run.js";
import { checkConclusion, renderCheckOutput } from "../render/render-check-output.js";
import { reviewState } from "../render/review-state.js";
import { renderSummary } from "../render/render-summary.js";
import { upsertSummaryComment } from "../upsert-summary-comment.js";

/**
 * After a ruling or a confirmation: the summary comment and the last reviewed head's check run say what
 * the ledger says now (a finding withdrawn for good no longer fails the check).
 */
export async function refreshVerdict(
  db: Database,
  github: GitHubClient,
  ref: RepoRef,
  run: Run,
  config: RepoConfig,
): Promise<void> {
  const findings = await listFindings(db, run.id);
  const input = {
    findings,
    turns: await listTurns(db, run.id),
    lastReviewedSha: run.lastReviewedSha,
    failOn: config.review.fail_on,
  };
  await upsertSummaryComment(db, github, ref, run, renderSummary(input));
  if (!run.lastReviewedSha) return;
  const checkRunId = await github.findCheckRun(ref, run.lastReviewedSha, CHECK_NAME);
  if (checkRunId === undefined) return;
  await github.updateCheckRun(ref, checkRunId, {
    status: "completed",
    conclusion: checkConclusion(findings, config.review.fail_on),
    ...renderCheckOutput(findings, [], reviewState(input)),
  });
}
