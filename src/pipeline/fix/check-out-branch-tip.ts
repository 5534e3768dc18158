import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { BranchTip, FixTarget, FixTurn } from "./fix-turn.js";

/** The head branch's tip, fetched into the run's workspace and checked out for the fixer. */
export async function checkOutBranchTip(deps: PipelineDeps, turn: FixTurn, target: FixTarget): Promise<BranchTip> {
  const pushUrl = target.cloneUrl;
  const workspace = deps.workspace(turn.run);
  await workspace.ensure();
  const token = deps.gitToken(pushUrl, await turn.ctx.github.installationToken());
  // Start from the branch's tip as it is now (our own earlier fix may not have reached the run yet):
  // a fast-forward push can only land on top of it.
  await workspace.fetch(pushUrl, [`+refs/heads/${target.branch}:refs/no-mistakes/branch`], { token });
  const startSha = await workspace.revParse("refs/no-mistakes/branch");
  await workspace.checkout(startSha);
  return { target, workspace, token, startSha };
}
