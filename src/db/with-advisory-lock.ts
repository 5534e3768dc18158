import postgres from "postgres";
import type { DatabaseHandle } from "./database.js";

/**
 * Runs `fn` while holding PostgreSQL's session advisory lock `key`, waiting for it when another session
 * holds it: replicas starting together take turns. See `withTryAdvisoryLock` for the session it takes.
 */
export async function withAdvisoryLock<T>(database: DatabaseHandle, key: number, fn: () => Promise<T>): Promise<T> {
  const outcome = await onLockSession(
    database,
    async (sql) => {
      await sql`select pg_advisory_lock(${key})`;
      return true;
    },
    fn,
  );
  if (!outcome.locked) throw new Error(`advisory lock ${key} was not taken`); // pg_advisory_lock waits until it is
  return outcome.value;
}

/**
 * Runs `fn` while holding PostgreSQL's session advisory lock `key`; `locked: false` without running it
 * when another session holds the lock.
 */
export async function withTryAdvisoryLock<T>(
  database: DatabaseHandle,
  key: number,
  fn: () => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  return onLockSession(
    database,
    async (sql) => {
      const [row] = await sql<{ locked: boolean }[]>`select pg_try_advisory_lock(${key}) as locked`;
      return row?.locked === true;
    },
    fn,
  );
}

/**
 * The lock is taken on a connection of its own (it belongs to the session that took it, and a pool's
 * connections come and go) and released by closing it — also when this process dies. An embedded
 * database is one process's: there `fn` simply runs.
 */
async function onLockSession<T>(
  database: DatabaseHandle,
  take: (sql: postgres.Sql) => Promise<boolean>,
  fn: () => Promise<T>,
): Promise<{ locked: true; value: T } | { locked: false }> {
  if (database.kind === "pglite" || !database.url) return { locked: true, value: await fn() };
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    if (!(await take(sql))) return { locked: false };
    return { locked: true, value: await fn() };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
