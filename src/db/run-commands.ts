import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Command, ConversationCommand } from "../domain/command.js";
import type { Database } from "./database.js";
import { runCommands, type RunCommand } from "./schema.js";

/** Records an agent command for the run; false when this comment was already recorded. */
export async function addRunCommand(
  db: Database,
  row: {
    runId: number;
    commentId: number;
    source?: "issue_comment" | "review_comment";
    author: string;
    command: Command | ConversationCommand;
  },
): Promise<boolean> {
  const inserted = await db.insert(runCommands).values(row).onConflictDoNothing().returning({ id: runCommands.id });
  return inserted.length === 1;
}

/** Commands not finished yet, oldest first (a crashed job's command is picked up again). */
export async function listPendingCommands(db: Database, runId: number): Promise<RunCommand[]> {
  return db
    .select()
    .from(runCommands)
    .where(and(eq(runCommands.runId, runId), inArray(runCommands.status, ["pending"])))
    .orderBy(asc(runCommands.id));
}

export async function finishRunCommand(db: Database, id: number, status: "done" | "failed"): Promise<void> {
  await db
    .update(runCommands)
    .set({ status, finishedAt: sql`now()` })
    .where(eq(runCommands.id, id));
}

/** Keeps the agent's answer to a command: a retried job posts it instead of asking the agent again. */
export async function setRunCommandAnswer(db: Database, id: number, answer: unknown): Promise<void> {
  await db.update(runCommands).set({ answer }).where(eq(runCommands.id, id));
}
