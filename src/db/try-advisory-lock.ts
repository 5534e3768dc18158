import postgres from "postgres";
import type { DatabaseHandle } from "./database.js";

/**
 * Runs `fn` while holding PostgreSQL's session advisory lock `key`, on a connection of its own (the
 * lock belongs to the connection that took it, and the pool's connections come and go); `locked: false`
 * without running it when another session holds the lock. A process that dies releases it with its
 * connection. PGlite is one process's database: there `fn` simply runs.
 */
export async function withTryAdvisoryLock<T>(
  database: DatabaseHandle,
  key: number,
  fn: () => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  if (database.kind === "pglite" || !database.url) return { locked: true, value: await fn() };
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ locked: boolean }[]>`select pg_try_advisory_lock(${key}) as locked`;
    if (!row?.locked) return { locked: false };
    return { locked: true, value: await fn() };
  } finally {
    await sql.end({ timeout: 5 }); // closing the session releases its lock
  }
}
