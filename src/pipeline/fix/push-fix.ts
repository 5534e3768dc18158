import { GitError } from "../../git/git-error.js";
import type { PipelineDeps } from "../job/pipeline-deps.js";
import { shortSha } from "../../text/labels.js";
import { sanitizeMarkdown } from "../../text/sanitize-markdown.js";
import type { BranchTip, ChosenFindings, FixCommit, FixTurn } from "./fix-turn.js";
import { pushTarget } from "./push-target.js";
import { recordRefusedPush } from "./record-refused-push.js";
import { replyWithPatch } from "./reply-with-patch.js";

/**
 * Push, fast-forward only, where GitHub says the PR's head is at this moment; a refusal is reported with the
 * change attached. True when the commit reached the branch.
 */
export async function pushFix(
  deps: PipelineDeps,
  turn: FixTurn,
  findings: ChosenFindings,
  tip: BranchTip,
  commit: FixCommit,
): Promise<boolean> {
  const { run, log } = turn;
  const { github, ref } = turn.ctx;
  const { target } = tip;
  const { sha } = commit;
  const refuse = async (kind: "push_target" | "head_moved" | "push_rejected", why: string): Promise<false> => {
    await recordRefusedPush(deps, turn, kind, `fix ${shortSha(sha)} not pushed: ${why}`);
    await replyWithPatch(turn, findings, tip, sha, why);
    return false;
  };
  const now = pushTarget(await github.getPullRequest(ref, run.prNumber), run.repositoryFullName);
  if (
    "refusal" in now ||
    now.cloneUrl !== target.cloneUrl ||
    now.branch !== target.branch ||
    now.repoFullName !== target.repoFullName
  ) {
    log.warn({ sha, was: target, now }, "fix not pushed: the pull request's head changed while the fixer worked");
    return refuse(
      "refusal" in now ? "push_target" : "head_moved",
      "refusal" in now
        ? now.refusal
        : `the pull request's head changed while the fixer worked (now \`${sanitizeMarkdown(now.repoFullName)}:${sanitizeMarkdown(now.branch)}\`).`,
    );
  }
  try {
    await tip.workspace.push(target.cloneUrl, sha, target.branch, { token: tip.token });
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    log.warn({ kind: error.kind, sha }, "fix push refused");
    return refuse("push_rejected", pushRefusal(error));
  }
  return true;
}

function pushRefusal(error: GitError): string {
  switch (error.kind) {
    case "rejected":
      return "the branch moved or is protected (the push was not a fast-forward, or a rule refused it).";
    case "auth":
      return "the app lacks permission to push there.";
    case "not-found":
      return "the branch or repository no longer exists.";
    default:
      return `git said: ${sanitizeMarkdown(error.message.slice(0, 300))}`;
  }
}
