import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "./database.js";
import { findings, type Finding } from "./schema.js";

export type NewFinding = Omit<typeof findings.$inferInsert, "id" | "runId" | "number" | "createdAt" | "updatedAt">;

export async function listFindings(db: Database, runId: number): Promise<Finding[]> {
  return db.select().from(findings).where(eq(findings.runId, runId)).orderBy(asc(findings.number));
}

/** Inserts findings with the run's next stable numbers (NM-<n>); one turn per run at a time. */
export async function insertFindings(db: Database, runId: number, rows: NewFinding[]): Promise<Finding[]> {
  if (rows.length === 0) return [];
  const [{ max }] = (await db
    .select({ max: sql<number>`coalesce(max(${findings.number}), 0)::int` })
    .from(findings)
    .where(eq(findings.runId, runId))) as [{ max: number }];
  return db
    .insert(findings)
    .values(rows.map((row, i) => ({ ...row, runId, number: max + i + 1 })))
    .returning();
}

export async function updateFinding(
  db: Database,
  runId: number,
  number: number,
  patch: Partial<NewFinding>,
): Promise<void> {
  await db
    .update(findings)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(findings.runId, runId), eq(findings.number, number)));
}
