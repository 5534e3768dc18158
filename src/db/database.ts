import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema.js";

/** A Drizzle database over either driver; queries are written once against this. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database: the Drizzle handle plus what the rest of the app needs from the driver. */
export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /** The connection URL (postgres only). */
  url?: string;
  /** Raw SQL with positional parameters ($1, $2, ...); without parameters it may hold several statements. */
  executeSql(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Round trip to the database; throws when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
