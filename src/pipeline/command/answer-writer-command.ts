import { deleteRunAgentSession } from "../../db/run-agent-sessions.js";
import { updateRun } from "../../db/runs.js";
import type { Run } from "../../db/schema.js";
import type { Command } from "../../domain/command.js";
import { inlineCode } from "../../text/sanitize-markdown.js";
import { answerDismiss } from "./answer-dismiss.js";
import type { CommandCall } from "./command-call.js";
import { handleLearnCommand } from "./handle-learn-command.js";
import { queueRunCommand } from "./queue-run-command.js";

/** The commands only writers may give, once their standing is checked. */
export type WriterCommand = Exclude<Command, { kind: "help" | "unknown" | "config" | "status" | "ask" }>;

/** A writer's command answered: agent work queued for the run, or the run's state changed and said. */
export async function answerWriterCommand(call: CommandCall, run: Run, command: WriterCommand): Promise<void> {
  const { deps, job, github, ref, log, reply } = call;
  switch (command.kind) {
    case "fix":
      if (Array.isArray(command.findings) && command.findings.length === 0) {
        return reply(
          `@${job.author} I could not read ${command.invalid?.map(inlineCode).join(", ") ?? "those ids"} as finding ids; write them like \`NM-3\`.`,
        );
      }
      return queueRunCommand(call, run, command);
    case "review":
      return queueRunCommand(call, run, command);
    case "dismiss":
      return answerDismiss(call, run, command);
    case "reset":
      await deleteRunAgentSession(deps.db, run.id, command.role);
      return reply(
        `@${job.author} Forgot the ${command.role ? `${command.role}'s session` : "reviewer's and the fixer's sessions"}; the next turn starts fresh.`,
      );
    case "pause":
      await updateRun(deps.db, run.id, { state: "paused" });
      return reply(
        `@${job.author} Paused: pushes are no longer reviewed automatically. \`/no-mistakes resume\` turns them back on; \`/no-mistakes review\` still works.`,
      );
    case "learn":
      return handleLearnCommand(deps, job, github, ref, log.child({ runId: run.id }));
    case "resume":
      await updateRun(deps.db, run.id, { state: "open" });
      await deps.enqueueRun({ runId: run.id, trigger: "synchronize", deliveryId: job.deliveryId });
      return reply(`@${job.author} Resumed: pushes are reviewed again (the newest head is queued now).`);
  }
}
