import type { PipelineDeps } from "../job/pipeline-deps.js";
import { shortSha } from "../../text/labels.js";
import { listed } from "./listed.js";
import { recordRefusedPush } from "./record-refused-push.js";
import type { BranchTip, FixCommit, FixTurn } from "./fix-turn.js";
import { replyNotPushed } from "./reply-not-pushed.js";

/**
 * No gitlink (a submodule entry names a commit of some other repository) in what the change adds or
 * changes. True when there is one: the fix is refused, and the reply names it.
 */
export async function refuseGitlinks(
  deps: PipelineDeps,
  turn: FixTurn,
  tip: BranchTip,
  commit: FixCommit,
): Promise<boolean> {
  const { sha } = commit;
  const gitlinks = (await tip.workspace.treeChanges(tip.startSha, sha))
    .filter((c) => c.newMode === "160000")
    .map((c) => c.path);
  if (gitlinks.length === 0) return false;
  turn.log.warn({ sha, paths: gitlinks.slice(0, 20) }, "fix refused: it adds or changes a gitlink");
  await recordRefusedPush(
    deps,
    turn,
    "gitlink",
    `fix ${shortSha(sha)} not pushed: it adds or changes a gitlink (submodule entry) at ${listed(gitlinks)}`,
  );
  await replyNotPushed(
    turn,
    tip.target.branch,
    "it adds or changes a submodule entry (a gitlink), which no-mistakes never commits.",
    gitlinks.slice(0, 20),
  );
  return true;
}
