import { updateRun } from "../../db/runs.js";
import { prepareWorkspace } from "../workspace/prepare-workspace.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { ReviewHead, ReviewTurn } from "./review-turn.js";

/** Triggers that review even a head that was reviewed already. */
export const EXPLICIT_TRIGGERS: ReadonlySet<string> = new Set(["rerequested", "command"]);

/**
 * Fetches the PR into the run's workspace and checks out its newest head; undefined when that head was
 * reviewed already and nobody asked again.
 */
export async function checkOutHead(deps: PipelineDeps, turn: ReviewTurn): Promise<ReviewHead | undefined> {
  const { run, job, log } = turn;
  const workspace = deps.workspace(run);
  const token = deps.gitToken(run.cloneUrl, await turn.ctx.github.installationToken());
  const ws = await prepareWorkspace(workspace, run, token, { full: job.full === true, log });
  // GitHub's refs/pull/N/head is the truth: webhooks can arrive late or out of order.
  if (ws.headSha !== run.headSha) await updateRun(deps.db, run.id, { headSha: ws.headSha });
  if (!EXPLICIT_TRIGGERS.has(job.trigger) && !job.full && run.lastReviewedSha === ws.headSha) {
    log.info({ headSha: ws.headSha }, "review skipped: this head was already reviewed");
    return undefined;
  }
  return { workspace, ws };
}
