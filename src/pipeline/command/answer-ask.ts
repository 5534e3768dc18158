import type { Run } from "../../db/schema.js";
import { standing } from "../ledger/standing.js";
import type { CommandCall } from "./command-call.js";
import { queueRunCommand } from "./queue-run-command.js";

/** `/no-mistakes ask <question>`: the PR's author and writers ask the reviewer, answered read-only by the run's job. */
export async function answerAsk(
  call: CommandCall,
  run: Run,
  command: { kind: "ask"; question: string },
): Promise<void> {
  const { deps, job, github, ref, log, reply } = call;
  if (!command.question)
    return reply(`@${job.author} Write the question after the command: \`/no-mistakes ask <question>\`.`);
  const who = await standing(github, ref, run, job.author);
  if (!who.author && !who.writer) {
    log.info({ author: job.author, permission: who.permission }, "command refused");
    await deps.refusals.refuse({
      kind: "unauthorized_command",
      repositoryFullName: run.repositoryFullName,
      prNumber: run.prNumber,
      actor: job.author,
      reason: `ask: not the pull request's author nor a writer (permission ${who.permission})`,
    });
    return reply(
      `@${job.author} \`/no-mistakes ask\` is for the pull request's author and people with write access to this repository (yours: ${who.permission}).`,
    );
  }
  await github.addReaction(ref, job.commentId, "eyes");
  await queueRunCommand(call, run, command);
}
