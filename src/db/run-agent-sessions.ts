import { and, eq, sql } from "drizzle-orm";
import type { Role } from "../domain/role.js";
import type { Database } from "./database.js";
import { runAgentSessions, type RunAgentSession } from "./schema.js";

export async function loadRunAgentSession(
  db: Database,
  runId: number,
  role: Role,
): Promise<RunAgentSession | undefined> {
  const rows = await db
    .select()
    .from(runAgentSessions)
    .where(and(eq(runAgentSessions.runId, runId), eq(runAgentSessions.role, role)))
    .limit(1);
  return rows[0];
}

export async function listRunAgentSessions(db: Database, runId: number): Promise<RunAgentSession[]> {
  return db.select().from(runAgentSessions).where(eq(runAgentSessions.runId, runId));
}

/** Upsert on (run, role): the latest session id an agent reports always wins. */
export async function saveRunAgentSession(
  db: Database,
  row: {
    runId: number;
    role: Role;
    agent: string;
    sessionId: string;
    state: Buffer | null;
    /** The session's size after the turn (input tokens of its largest request). */
    contextTokens?: number;
    /** A new session's size less its first prompt: what any new session would carry besides its prompt. */
    overheadTokens?: number;
    /** What the session has now been told (the caller's record); undefined keeps what is stored. */
    memory?: unknown;
  },
): Promise<void> {
  await db
    .insert(runAgentSessions)
    .values({ ...row, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: [runAgentSessions.runId, runAgentSessions.role],
      set: {
        agent: row.agent,
        sessionId: row.sessionId,
        state: row.state,
        contextTokens: row.contextTokens ?? 0,
        ...(row.overheadTokens === undefined ? {} : { overheadTokens: row.overheadTokens }),
        ...(row.memory === undefined ? {} : { memory: row.memory }),
        updatedAt: sql`now()`,
      },
    });
}

/** Forgets a (run, role) session; without a role, every session of the run. */
export async function deleteRunAgentSession(db: Database, runId: number, role?: Role): Promise<void> {
  await db
    .delete(runAgentSessions)
    .where(
      role
        ? and(eq(runAgentSessions.runId, runId), eq(runAgentSessions.role, role))
        : eq(runAgentSessions.runId, runId),
    );
}

/** Sets what the (run, role) session has been told; a no-op when none is stored. */
export async function rememberRunAgentSession(db: Database, runId: number, role: Role, memory: unknown): Promise<void> {
  await db
    .update(runAgentSessions)
    .set({ memory, updatedAt: sql`now()` })
    .where(and(eq(runAgentSessions.runId, runId), eq(runAgentSessions.role, role)));
}
