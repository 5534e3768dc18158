import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { migrateDatabase } from "../../src/db/migrate-database.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";

const kinds = await databaseKinds();
/** Every migration the repository ships (drizzle's journal lists them). */
const MIGRATIONS = (
  JSON.parse(readFileSync(new URL("../../drizzle/meta/_journal.json", import.meta.url), "utf8")) as {
    entries: unknown[];
  }
).entries.length;

describe.each(kinds)("migrations on %s", (kind) => {
  let database: TestDatabase;
  afterAll(() => database?.dispose());

  it("creates every table once and is a no-op when run again", async () => {
    database = await createTestDatabase(kind); // migrated once already
    await migrateDatabase(database.handle);
    await migrateDatabase(database.handle);

    const tables = await database.handle.executeSql(
      "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual([
      "executions",
      "finding_events",
      "findings",
      "refusals",
      "run_agent_sessions",
      "run_commands",
      "runs",
      "scorecard_revisions",
      "turns",
      "web_sessions",
      "webhook_deliveries",
      "worker_jobs",
      "workers",
    ]);
    const applied = await database.handle.executeSql("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(applied.rows[0]!.n).toBe(MIGRATIONS);
    const pk = await database.handle.executeSql(
      `select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
       where i.indrelid = 'run_agent_sessions'::regclass and i.indisprimary order by a.attname`,
    );
    expect(pk.rows.map((r) => r.attname)).toEqual(["role", "run_id"]);
  });

  it.runIf(kind === "postgres")("lets replicas that start together migrate one at a time", async () => {
    const fresh = await createTestDatabase("postgres");
    try {
      // the helper migrated once; drop everything and race three migrators on the empty database
      await fresh.handle.executeSql("drop schema public cascade; create schema public; drop schema drizzle cascade");
      await Promise.all([migrateDatabase(fresh.handle), migrateDatabase(fresh.handle), migrateDatabase(fresh.handle)]);
      const applied = await fresh.handle.executeSql("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied.rows[0]!.n).toBe(MIGRATIONS);
    } finally {
      await fresh.dispose();
    }
  });
});
