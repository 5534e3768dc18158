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
    await deps.refusals.refuse({
      kind: "push_target",
      repositoryFullName: run.repositoryFullName,
      prNumber: run.prNumber,
      actor: turn.request.requestedBy ?? "fixer",
      reason: `no fix attempted: ${target.refusal}`,
    });
    await turn.reply(`${turn.who}No fix was attempted: ${target.refusal}`);
    return undefined;
  }
  return target;
}
