import type { PipelineDeps } from "../job/pipeline-deps.js";
import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";
import { shortSha } from "../../text/labels.js";
import { listed } from "./listed.js";
import { recordRefusedPush } from "./record-refused-push.js";
import type { BranchTip, ChosenFindings, FixCommit, FixTurn } from "./fix-turn.js";
import { isWorkflowPath } from "./push-target.js";
import { replyWithPatch } from "./reply-with-patch.js";

/**
 * No change to workflow files, which GitHub refuses from this App. True when the fix touches one: it is
 * not pushed, and the reply carries the change as a patch.
 */
export async function refuseWorkflowChanges(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  commit: FixCommit,
): Promise<boolean> {
  const { sha } = commit;
  const workflows = (await tip.workspace.changedFiles(tip.startSha, sha))
    .flatMap((f) => [f.path, f.oldPath ?? f.path])
    .filter(isWorkflowPath);
  if (workflows.length === 0) return false;
  turn.log.warn({ sha, workflows }, "fix not pushed: it changes workflow files");
  await recordRefusedPush(
    deps,
    turn,
    "workflow_files",
    `fix ${shortSha(sha)} not pushed: it changes workflow files (${listed([...new Set(workflows)])}), which needs the workflows permission the App does not ask for; the reply carries the patch`,
  );
  await replyWithPatch(
    turn,
    findings,
    tip,
    sha,
    `it changes workflow files (${[...new Set(workflows)].map((p) => `\`${sanitizeMarkdown(p).replace(/`/g, "'")}\``).join(", ")}), which GitHub only accepts from an App with the \`workflows\` permission — no-mistakes does not ask for it, so a change to CI stays with a person.`,
  );
  return true;
}
