import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema.js";

/** A Drizzle database over either driver; queries are written once against this. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL with positional parameters ($1, $2, ...); without parameters it may hold several statements. */
export type ExecuteSql = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** One open transaction: Drizzle and raw SQL on the same connection, committed together. */
export interface Transaction {
  db: Database;
  executeSql: ExecuteSql;
}

/** An open database: the Drizzle handle plus what the rest of the app needs from the driver. */
export interface DatabaseHandle {
  db: Database;
  kind: "pglite" | "postgres";
  /**
   * The connection URL, for connections of one's own: PostgreSQL's, or for the embedded database its unix
   * socket as libpq writes it (`…?host=<dir>`: node-postgres, pg-boss and psql read it; postgres.js does not).
   */
  url?: string;
  /** Raw SQL with positional parameters ($1, $2, ...); without parameters it may hold several statements. */
  executeSql(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /**
   * Runs `fn` in one transaction (one commit, one WAL flush): committed when it resolves, rolled back
   * when it throws (the error is rethrown).
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Round trip to the database; throws when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
