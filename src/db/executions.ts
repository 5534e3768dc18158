import { asc, eq } from "drizzle-orm";
import type { Database } from "./database.js";
import { executions, type Execution } from "./schema.js";

export type ExecutionRow = Omit<Execution, "id" | "createdAt">;

/** Keeps one run of the repository's own code; returns its id. */
export async function insertExecution(db: Database, row: ExecutionRow): Promise<number> {
  const [inserted] = await db.insert(executions).values(row).returning({ id: executions.id });
  return inserted!.id;
}

/** A run's executions, oldest first. */
export async function listRunExecutions(db: Database, runId: number): Promise<Execution[]> {
  return db.select().from(executions).where(eq(executions.runId, runId)).orderBy(asc(executions.id));
}
