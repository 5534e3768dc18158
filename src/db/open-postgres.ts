import { drizzle as drizzlePostgres, type PostgresJsSession } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Database, DatabaseHandle, ExecuteSql } from "./database.js";
import * as schema from "./schema.js";

/**
 * PostgreSQL through postgres.js: `url` alone, or `options` with a `host` (a unix socket's directory, which
 * postgres.js does not read from a URL) and `url` kept for whoever opens connections of their own.
 */
export function openPostgres(url: string, options: postgres.Options<{}> = {}): DatabaseHandle {
  const settings = { onnotice: () => {}, ...options };
  const sql = options.host === undefined ? postgres(url, settings) : postgres(settings);
  const db = drizzlePostgres({ client: preparing(sql), schema }) as unknown as Database;
  return {
    db,
    kind: "postgres",
    url,
    executeSql: postgresExecutor(sql),
    async transaction(fn) {
      // Drizzle's transaction (postgres.js `begin` underneath: one reserved connection, BEGIN … COMMIT);
      // raw SQL goes through the same postgres.js transaction client, so it commits or rolls back with it.
      return db.transaction(async (tx) => {
        const client = (
          tx._.session as unknown as Pick<PostgresJsSession<postgres.Sql, typeof schema, never>, "client">
        ).client as unknown as postgres.TransactionSql | undefined;
        if (typeof client?.unsafe !== "function")
          throw new Error("drizzle-orm's postgres.js transaction no longer exposes its client");
        return fn({ db: tx as unknown as Database, executeSql: postgresExecutor(client) });
      });
    },
    async ping() {
      await sql`select 1`;
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Raw SQL through postgres.js, with parameters as node-postgres (pg-boss's own driver) takes them:
 * `undefined` is NULL, and plain objects (a queued job's data) are JSON — Drizzle turns postgres.js's
 * json/jsonb serializers into no-ops, so they are stringified here.
 */
function postgresExecutor(sql: postgres.Sql | postgres.TransactionSql): ExecuteSql {
  return async (text, params = []) => {
    const values = params.map((value) =>
      value === undefined ? null : isPlainObject(value) ? JSON.stringify(value) : value,
    );
    const rows = await sql.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare: values.length > 0 });
    return { rows: rows as unknown as Record<string, unknown>[] };
  };
}

type AnyClient = postgres.Sql | postgres.TransactionSql;

/**
 * The client as Drizzle gets it: parameterized queries become named prepared statements (postgres.js
 * caches them per connection), so each runs in one round trip, parsed and planned once per connection,
 * instead of two (postgres.js describes an unprepared parameterized query before binding it). Also on
 * the transactions Drizzle opens (`begin`, `savepoint`).
 */
function preparing<T extends AnyClient>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === "unsafe") {
        return (text: string, params?: unknown[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(text, params as postgres.ParameterOrJSON<never>[], {
            ...options,
            prepare: params !== undefined && params.length > 0,
          });
      }
      if (prop === "begin" || prop === "savepoint") {
        const original = Reflect.get(target, prop, target) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: postgres.TransactionSql) => unknown;
          return original.call(target, ...args, (tx: postgres.TransactionSql) => fn(preparing(tx)));
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
