import type { PipelineDeps } from "../job/pipeline-deps.js";
import { shortSha } from "../../text/labels.js";
import type { BranchTip, ChosenFindings, FixCommit, FixProof, FixTurn } from "./fix-turn.js";
import { recordRefusedPush } from "./record-refused-push.js";
import { renderFailures } from "./render-fix-proof.js";
import { replyWithPatch } from "./reply-with-patch.js";

/** What follows a blocked fix: the fixer's next round, or the end of the fix and why. */
export type AfterBlock = { again: true } | { again: false; why: string };

/**
 * A fix the gate blocked: recorded as a refused push (`fix_unproven`), and answered with each command that
 * shows it does not work and the end of its output. When the fixer gets another round the reply says so;
 * when the fix ends here it carries the change as a patch, so nothing is lost.
 */
export async function refuseUnprovenFix(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  commit: FixCommit & { proof: FixProof },
  next: AfterBlock,
): Promise<void> {
  const { failures } = commit.proof;
  turn.log.warn({ sha: commit.sha, failures: failures.map((f) => f.what) }, "fix not pushed: it does not pass");
  await recordRefusedPush(
    deps,
    turn,
    "fix_unproven",
    `fix ${shortSha(commit.sha)} not pushed: ${failures.map((f) => `${f.what} (${f.command}: ${f.why})`).join("; ")}${next.again ? "" : `. ${next.why}`}`,
  );
  const why = `what the app ran on it does not show that it works.\n\n${renderFailures(failures)}`;
  if (next.again) {
    await turn.reply(
      `${turn.who}The fix ${shortSha(commit.sha)} was not pushed to \`${tip.target.branch}\`: ${why}\n\nThe fixer gets one more round with this failure.`,
    );
    return;
  }
  await replyWithPatch(turn, findings, tip, commit.sha, `${why}\n\n${next.why}; nothing was pushed.`);
}
