import { asc, eq, sql } from "drizzle-orm";
import type { Role } from "../domain/role.js";
import type { Database } from "./database.js";
import { runs, turns, type Turn } from "./schema.js";

/** How a turn's session began: no resume (cold), new (started), continued (resumed), new after a failed resume (fallback), new because the stored one passed its budget (rollover). */
export type SessionMode = "cold" | "started" | "resumed" | "fallback" | "rollover";
export type TurnStatus = "running" | "succeeded" | "failed" | "cancelled" | "interrupted";

/** Opens a turn's row, with its run's `pr_updated_at` as it is now (for a review of a push: when it was pushed). */
export async function startTurn(
  db: Database,
  row: { runId: number; role: Role; trigger: string; headSha: string; agent: string; model?: string | null },
): Promise<number> {
  const [inserted] = await db
    .insert(turns)
    .values({ ...row, prUpdatedAt: sql`(select ${runs.prUpdatedAt} from ${runs} where ${runs.id} = ${row.runId})` })
    .returning({ id: turns.id });
  return inserted!.id;
}

export async function finishTurn(
  db: Database,
  id: number,
  outcome: {
    status: Exclude<TurnStatus, "running">;
    sessionMode?: SessionMode;
    sessionId?: string | null;
    fallbackReason?: string | null;
    tokensIn?: number;
    tokensOut?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
    contextTokens?: number;
    costUsd?: number;
    error?: string | null;
    rawAnswer?: string | null;
  },
): Promise<void> {
  await db
    .update(turns)
    .set({ ...outcome, finishedAt: new Date() })
    .where(eq(turns.id, id));
}

export async function listTurns(db: Database, runId: number): Promise<Turn[]> {
  return db.select().from(turns).where(eq(turns.runId, runId)).orderBy(asc(turns.id));
}

/** Keeps an agent answer that could not be used, for debugging. */
export async function setTurnRawAnswer(db: Database, id: number, rawAnswer: string): Promise<void> {
  await db.update(turns).set({ rawAnswer }).where(eq(turns.id, id));
}
