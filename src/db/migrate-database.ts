import { fileURLToPath } from "node:url";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { DatabaseHandle } from "./database.js";

export const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Arbitrary constant: replicas starting together take turns migrating. */
const MIGRATION_LOCK_KEY = 7_246_001;

/** Applies the committed drizzle/ migrations; safe to call on every start and from several replicas. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // One connection, so the session-level advisory lock covers every migration statement.
  const sql = postgres(handle.url!, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
    await migratePostgres(drizzle({ client: sql }), { migrationsFolder });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
