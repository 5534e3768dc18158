import type { ConfigProblem } from "../../config/repo/config-problem.js";
import type { RepoConfig } from "../../config/repo/repo-config.js";
import type { Database } from "../../db/database.js";
import type { Run } from "../../db/schema.js";
import type { GitHubClient, RepoRef } from "../../github/github-client.js";
import { CHECK_NAME } from "../../domain/check-name.js";
import { refreshSummary } from "./refresh-summary.js";
import { checkConclusion, renderCheckOutput } from "../render/render-check-output.js";
import { configProblemNote } from "../render/config-problem-note.js";
import { withConfigProblems } from "../render/with-config-problems.js";
import { reviewState } from "../render/review-state.js";

/**
 * After a ruling, a confirmation or a dismissal: the summary comment and the last reviewed head's check
 * run say what the ledger says now (a finding withdrawn for good no longer fails the check), with the
 * config files' problems as the review's check run had them.
 */
export async function refreshVerdict(
  db: Database,
  github: GitHubClient,
  ref: RepoRef,
  run: Run,
  config: RepoConfig,
  configProblems: readonly ConfigProblem[],
): Promise<void> {
  const input = await refreshSummary(db, github, ref, run, config);
  if (!run.lastReviewedSha) return;
  const checkRunId = await github.findCheckRun(ref, run.lastReviewedSha, CHECK_NAME);
  if (checkRunId === undefined) return;
  const output = renderCheckOutput(input.findings, configProblems.map(configProblemNote), reviewState(input));
  await github.updateCheckRun(ref, checkRunId, {
    status: "completed",
    ...withConfigProblems(
      { conclusion: checkConclusion(input.findings, config.review.fail_on), ...output },
      configProblems,
    ),
  });
}
