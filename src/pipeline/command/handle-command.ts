import type { CommandJob } from "../../domain/command-job.js";
import { repoRef } from "../job/repo-ref.js";
import { answerAsk } from "./answer-ask.js";
import { answerStatus } from "./answer-status.js";
import { answerWriterCommand } from "./answer-writer-command.js";
import type { CommandCall } from "./command-call.js";
import type { CommandDeps } from "./command-deps.js";
import { ensureRun } from "./ensure-run.js";
import { handleConfigCommand } from "./handle-config-command.js";
import { handleThreadReply } from "./handle-thread-reply.js";
import { helpText } from "./help-text.js";
import { writerOrRefused } from "./writer-or-refused.js";

/** Answers a `/no-mistakes` comment: help, status and config for anyone; everything else for writers only. */
export async function handleCommand(deps: CommandDeps, job: CommandJob): Promise<void> {
  const log = deps.log.child({ deliveryId: job.deliveryId, command: job.command.kind, pr: job.prNumber });
  const github = await deps.github(job.installationId);
  const ref = repoRef(job);
  const reply = (body: string) => github.createIssueComment(ref, job.prNumber, body).then(() => undefined);
  const call: CommandCall = { deps, job, github, ref, log, reply };
  const command = job.command;

  if (command.kind === "thread-reply") return handleThreadReply(deps, { ...job, command }, github, ref, log);
  if (command.kind === "help" || command.kind === "unknown") {
    return reply(`@${job.author} ${helpText(command.kind === "unknown" ? command.text : undefined)}`);
  }
  if (command.kind === "config") return handleConfigCommand(github, ref, job);
  const run = await ensureRun(deps.db, github, ref, job);
  if (command.kind === "status") return answerStatus(call, run);
  if (command.kind === "ask") return answerAsk(call, run, command);
  if (!(await writerOrRefused(call, run, command.kind))) return;
  await github.addReaction(ref, job.commentId, "eyes");
  log.info({ author: job.author, runId: run.id }, "command accepted");
  return answerWriterCommand(call, run, command);
}
