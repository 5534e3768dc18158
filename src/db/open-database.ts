import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Database, DatabaseHandle } from "./database.js";
import * as schema from "./schema.js";

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` with no databaseUrl means in-memory (tests). */
  pgliteDir?: string;
  /** postgres.js pool size. */
  maxConnections?: number;
}

/** Opens PostgreSQL through postgres.js when a URL is given, else embedded PGlite. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  return openPglite(options.pgliteDir);
}

function openPostgres(url: string, max: number): DatabaseHandle {
  const sql = postgres(url, { max, onnotice: () => {} });
  const db = drizzlePostgres({ client: sql, schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    url,
    async executeSql(text, params = []) {
      const rows = await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]);
      return { rows: rows as unknown as Record<string, unknown>[] };
    },
    async ping() {
      await sql`select 1`;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

async function openPglite(dir: string | undefined): Promise<DatabaseHandle> {
  let client: PGlite;
  if (dir) {
    const absolute = resolve(dir);
    // PGlite creates only the last folder of its data dir.
    mkdirSync(dirname(absolute), { recursive: true });
    client = new PGlite(absolute);
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    pglite: client,
    async executeSql(text, params = []) {
      if (params.length > 0) return { rows: (await client.query<Record<string, unknown>>(text, params)).rows };
      // No parameters: may be a script of several statements (the queue library sends those).
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    async ping() {
      await client.query("select 1");
    },
    async close() {
      if (!client.closed) await client.close();
    },
  } as DatabaseHandle & { pglite: PGlite };
}
