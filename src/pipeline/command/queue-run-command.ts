import { addRunCommand } from "../../db/run-commands.js";
import type { Run } from "../../db/schema.js";
import type { Command } from "../../domain/command.js";
import type { CommandCall } from "./command-call.js";

/** Agent work asked for in a PR comment, handed to the run's own queue (never beside a review or fix of the run). */
export async function queueRunCommand({ deps, job }: CommandCall, run: Run, command: Command): Promise<void> {
  await addRunCommand(deps.db, { runId: run.id, commentId: job.commentId, author: job.author, command });
  await deps.enqueueRun({ runId: run.id, trigger: "command", deliveryId: job.deliveryId });
}
