import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { DatabaseHandle } from "../../src/db/database.js";
import { migrateDatabase } from "../../src/db/migrate-database.js";
import { openDatabase } from "../../src/db/open-database.js";

export type DatabaseKind = "pglite" | "postgres";

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

let postgresAvailable: Promise<boolean> | undefined;

/** The PostgreSQL server the tests use: TEST_DATABASE_URL, else the machine's local one. */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_URL || DEFAULT_URL;
}

/**
 * The database kinds to run a suite against. PGlite always; PostgreSQL when TEST_DATABASE_URL is set
 * (then it must be reachable) or when the machine's default server answers.
 */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  postgresAvailable ??= (async () => {
    const sql = postgres(adminUrl(), { max: 1, connect_timeout: 3, onnotice: () => {} });
    try {
      await sql`select 1`;
      return true;
    } catch (error) {
      if (process.env.TEST_DATABASE_URL)
        throw new Error(`TEST_DATABASE_URL is set but unreachable: ${(error as Error).message}`);
      console.warn(
        `PostgreSQL not reachable at ${DEFAULT_URL}; PostgreSQL-backed tests are skipped (set TEST_DATABASE_URL).`,
      );
      return false;
    } finally {
      await sql.end({ timeout: 1 });
    }
  })();
  return (await postgresAvailable) ? ["pglite", "postgres"] : ["pglite"];
}

/** A fresh, empty database URL on the test server (its own database), and a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `nm_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Closes and reopens the same database, as a restarted process would. */
  reopen(): Promise<DatabaseHandle>;
  dispose(): Promise<void>;
}

/** A migrated database of the given kind; PGlite lives in `pgliteDir` when given, else in memory. */
export async function createTestDatabase(kind: DatabaseKind, pgliteDir?: string): Promise<TestDatabase> {
  if (kind === "pglite") {
    let handle = await openDatabase({ pgliteDir });
    await migrateDatabase(handle);
    return {
      get handle() {
        return handle;
      },
      async reopen() {
        if (!pgliteDir) throw new Error("an in-memory PGlite database cannot be reopened");
        await handle.close();
        handle = await openDatabase({ pgliteDir });
        return handle;
      },
      dispose: () => handle.close(),
    };
  }
  const { url, drop } = await createPostgresDatabase();
  let handle = await openDatabase({ databaseUrl: url, maxConnections: 4 });
  await migrateDatabase(handle);
  return {
    get handle() {
      return handle;
    },
    async reopen() {
      await handle.close();
      handle = await openDatabase({ databaseUrl: url, maxConnections: 4 });
      return handle;
    },
    async dispose() {
      await handle.close();
      await drop();
    },
  };
}
