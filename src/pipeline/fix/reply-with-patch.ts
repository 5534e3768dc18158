import { codeBlock } from "../../text/code-block.js";
import { findingId } from "../../domain/finding-id.js";
import type { BranchTip, ChosenFindings, FixTurn } from "./fix-turn.js";

const PATCH_LIMIT = 60_000;

/** The reply to a fix that was made but not pushed: why, with the change attached as a patch so nothing is lost. */
export async function replyWithPatch(
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  sha: string,
  why: string,
): Promise<void> {
  const patch = await tip.workspace.formatPatch(tip.startSha, sha);
  return turn.reply(
    `${turn.who}The fix was made but not pushed to \`${tip.target.branch}\`: ${why}\n\n` +
      `<details><summary>The change, as a patch (${findings.chosen.map((f) => findingId(f.number)).join(", ")})</summary>\n\n` +
      codeBlock(patch, PATCH_LIMIT, "diff") +
      "\n\n</details>",
  );
}
