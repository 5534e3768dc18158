import { desc, sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { runs } from "../../db/schema.js";

/** The repository the app has runs for under this name (owner/name, any case); its newest run names it. */
export async function findRepository(
  db: Database,
  fullName: string,
): Promise<{ repositoryId: number; fullName: string } | undefined> {
  const [row] = await db
    .select({ repositoryId: runs.repositoryId, fullName: runs.repositoryFullName })
    .from(runs)
    .where(sql`lower(${runs.repositoryFullName}) = lower(${fullName})`)
    .orderBy(desc(runs.updatedAt), desc(runs.id))
    .limit(1);
  return row;
}
