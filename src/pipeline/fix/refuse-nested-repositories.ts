import type { PipelineDeps } from "../job/pipeline-deps.js";
import { listed } from "./listed.js";
import { recordRefusedPush } from "./record-refused-push.js";
import type { BranchTip, FixTurn } from "./fix-turn.js";
import { replyNotPushed } from "./reply-not-pushed.js";

/**
 * What the fixer left is data. Before git stages anything: no nested repository (`git add` would read a
 * `sub/.git` directory, or a `gitdir:` file naming another workspace, and record that repository's HEAD).
 * True when there is one: the fix is refused, and the reply names it.
 */
export async function refuseNestedRepositories(deps: PipelineDeps, turn: FixTurn, tip: BranchTip): Promise<boolean> {
  const nested = await tip.workspace.nestedRepositories();
  if (nested.length === 0) return false;
  turn.log.warn({ paths: nested.slice(0, 20) }, "fix refused: it leaves a nested repository");
  await recordRefusedPush(
    deps,
    turn,
    "nested_repository",
    `fix not committed: the fixer left a nested repository (.git) at ${listed(nested)}`,
  );
  await replyNotPushed(
    turn,
    tip.target.branch,
    "it leaves a `.git` file or directory inside the repository (a nested repository or a pointer to one), which no-mistakes never stages.",
    nested.slice(0, 20),
  );
  return true;
}
