import { desc } from "drizzle-orm";
import type { Database } from "./database.js";
import { refusals, type Refusal } from "./schema.js";

export interface RefusalRow {
  kind: string;
  repositoryFullName: string | null;
  prNumber: number | null;
  actor: string | null;
  /** Already redacted and cut (src/refusals does both): the operator page shows it. */
  reason: string;
  /** The refusals the row stands for (default 1). */
  count?: number;
}

/**
 * Writes one refusal row. Only src/refusals calls it — through Refusals.refuse, which also counts
 * `refusals_total` and redacts the reason — so the table and the metric never disagree.
 */
export async function insertRefusal(db: Database, row: RefusalRow): Promise<void> {
  await db.insert(refusals).values({ ...row, count: row.count ?? 1 });
}

/** The newest refusals first. */
export async function listRefusals(db: Database, limit = 50): Promise<Refusal[]> {
  return db.select().from(refusals).orderBy(desc(refusals.createdAt), desc(refusals.id)).limit(limit);
}
