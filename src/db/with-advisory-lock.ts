import postgres from "postgres";
import type { DatabaseHandle } from "./database.js";

/**
 * Runs `fn` while holding PostgreSQL's session advisory lock `key`, waiting for it when another session
 * holds it: replicas starting together take turns. The lock is taken on a connection of its own (it
 * belongs to the session that took it) and released by closing it, also when this process dies.
 * An embedded database is one process's: there `fn` simply runs.
 */
export async function withAdvisoryLock<T>(database: DatabaseHandle, key: number, fn: () => Promise<T>): Promise<T> {
  if (database.kind === "pglite" || !database.url) return fn();
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${key})`;
    return await fn();
  } finally {
    await sql.end({ timeout: 5 });
  }
}
