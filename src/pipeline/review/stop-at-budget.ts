import { listTurns } from "../../db/turns.js";
import { budgetRefusal, spendOf } from "../sessions/check-budget.js";
import { ours } from "../publish/ours.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { refreshSummary } from "../publish/refresh-summary.js";
import { shortSha } from "../../text/labels.js";
import type { ReviewTurn } from "./review-turn.js";

const BUDGET_MARKER = "<!-- no-mistakes:budget -->";

/**
 * True when the PR has spent its turns or money: said once in the conversation, and at the top of the
 * summary; no reviewer turn is started.
 */
export async function stopAtBudget(deps: PipelineDeps, turn: ReviewTurn): Promise<boolean> {
  const { run, log } = turn;
  const { github, ref, config } = turn.ctx;
  const turnsBefore = await listTurns(deps.db, run.id);
  const overBudget = budgetRefusal(spendOf(turnsBefore), config, "reviewer");
  if (!overBudget) return false;
  log.info({ reason: overBudget }, "review refused: budget");
  await deps.refusals.refuse({
    kind: "budget",
    repositoryFullName: run.repositoryFullName,
    prNumber: run.prNumber,
    actor: "reviewer",
    reason: `no review of ${shortSha(run.headSha)}: ${overBudget}; raise it in .github/no-mistakes.yml`,
  });
  const comments = await ours(github, github.listIssueComments(ref, run.prNumber));
  if (!comments.some((c) => c.body.startsWith(BUDGET_MARKER))) {
    await github.createIssueComment(
      ref,
      run.prNumber,
      `${BUDGET_MARKER}\nno-mistakes stopped reviewing: ${overBudget}. Raise the limit in \`.github/no-mistakes.yml\` to continue.`,
    );
  }
  // the summary says so at the top: the review stopped here
  await refreshSummary(deps.db, github, ref, run, config);
  return true;
}
