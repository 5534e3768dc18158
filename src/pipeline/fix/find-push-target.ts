import type { PipelineDeps } from "../job/pipeline-deps.js";
import type { FixTarget, FixTurn } from "./fix-turn.js";
import { pushTarget } from "./push-target.js";

/**
 * Where the fix can go, as GitHub reports the PR now: its head repository and branch (a fork only with
 * maintainer edits); undefined when there is nowhere to push, and the reply says why.
 */
export async function findPushTarget(deps: PipelineDeps, turn: FixTurn): Promise<FixTarget | undefined> {
  const { run, log } = turn;
  const { github, ref } = turn.ctx;
  const target = pushTarget(await github.getPullRequest(ref, run.prNumber), run.repositoryFullName);
  if ("refusal" in target) {
    log.info({ reason: target.refusal }, "fix not attempted: nowhere to push");
    deps.metrics?.refusals.inc({ kind: "push_target" });
    await turn.reply(`${turn.who}No fix was attempted: ${target.refusal}`);
    return undefined;
  }
  return target;
}
