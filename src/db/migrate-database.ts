import { fileURLToPath } from "node:url";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { DatabaseHandle } from "./database.js";

export const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Arbitrary constant: replicas starting together take turns migrating. */
const MIGRATION_LOCK_KEY = 7_246_001;

/** Applies the committed drizzle/ migrations; safe to call on every start and from several replicas. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.kind === "pglite") {
    // The embedded database belongs to this process alone (see lockDataDir): nobody to take turns with.
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder });
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
