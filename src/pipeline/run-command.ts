import type { Logger } from "pino";
import { isConversation, type Command, type ConversationCommand } from "../domain/command.js";
import type { JobAttempt } from "../domain/job-attempt.js";
import type { RunJob } from "../domain/run-job.js";
import { finishRunCommand } from "../db/run-commands.js";
import type { RunCommand } from "../db/schema.js";
import { runConversation } from "./conversation/run-conversation.js";
import { runFix } from "./fix/run-fix.js";
import { classifyFailure } from "./job/classify-failure.js";
import type { PipelineDeps } from "./job/pipeline-deps.js";
import type { RunContext } from "./job/run-context.js";
import { codeBlock } from "../text/code-block.js";
import { runReview } from "./review/run-review.js";

/**
 * One command asked for in the PR (fix, review, a question or reply in a finding's thread), done and
 * marked done. A failure a retry may cure leaves it pending for the retry (the job throws); any other
 * marks it failed and tells its author why in the PR.
 */
export async function runCommand(
  deps: PipelineDeps,
  ctx: RunContext,
  job: RunJob,
  pending: RunCommand,
  signal: AbortSignal,
  attempt: JobAttempt,
  log: Logger,
): Promise<void> {
  const command = pending.command as Command | ConversationCommand;
  try {
    await carryOut(deps, ctx, job, pending, command, signal, attempt);
    await finishRunCommand(deps.db, pending.id, "done");
  } catch (error) {
    const decision = classifyFailure(error);
    if (decision.retry && !attempt.last) throw error; // the command stays pending for the retry
    await finishRunCommand(deps.db, pending.id, "failed");
    log.warn({ err: error, command: command.kind }, "command failed");
    const what =
      command.kind === "argue" || command.kind === "confirm"
        ? `your reply in NM-${command.finding}'s thread could not be answered`
        : `\`/no-mistakes ${command.kind}\` failed`;
    await ctx.github.createIssueComment(
      ctx.ref,
      ctx.run.prNumber,
      `@${pending.author} ${what}: ${decision.title}.\n\n${codeBlock(decision.detail)}`,
    );
  }
}

/** The command's work: a conversation in a finding's thread, a fix, or a review. */
async function carryOut(
  deps: PipelineDeps,
  ctx: RunContext,
  job: RunJob,
  pending: RunCommand,
  command: Command | ConversationCommand,
  signal: AbortSignal,
  attempt: JobAttempt,
): Promise<void> {
  if (isConversation(command)) {
    await runConversation(deps, ctx, pending, signal);
  } else if (command.kind === "fix") {
    await runFix(
      deps,
      ctx,
      {
        trigger: "command",
        findings: command.findings,
        note: command.note,
        requestedBy: pending.author,
      },
      signal,
    );
  } else if (command.kind === "review") {
    await runReview(deps, ctx, { ...job, trigger: "command", full: command.full }, signal, attempt);
  }
}
