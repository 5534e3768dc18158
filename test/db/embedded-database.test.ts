import { PGlite } from "@electric-sql/pglite";
import { getPriority } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../src/db/database.js";
import { openDatabase } from "../../src/db/open-database.js";
import { BACKGROUND_NICENESS } from "../../src/system/run-in-background.js";
import { descendants } from "../helpers/descendants.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

/** A connection of its own to the embedded server, as another client (pg-boss, psql) makes one. */
function connect(handle: DatabaseHandle, options: postgres.Options<{}> = {}): postgres.Sql {
  const host = new URL(handle.url!).searchParams.get("host")!;
  return postgres({ host, port: 5432, user: "postgres", database: "postgres", max: 1, onnotice: () => {}, ...options });
}

/** The main thread's event-loop delay (ms) while `work` runs. */
async function loopDelayDuring(work: () => Promise<unknown>): Promise<{ p99: number; max: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 30)); // its timer runs from the next turn of the loop
  await work();
  await new Promise((resolve) => setTimeout(resolve, 50)); // the sample a blocked loop takes once it turns again
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
}

describe("the embedded database, in its own process behind a unix socket", () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ pgliteDir: join(tempDir(), "pglite") });
  });
  afterAll(async () => {
    await handle?.close();
    removeTempDirs();
  });

  it("is reached over a unix socket in a directory only this user can open", async () => {
    expect(handle.kind).toBe("pglite");
    const url = new URL(handle.url!);
    expect(url.searchParams.get("host")).toMatch(/pglite-socket$/);
    const { statSync } = await import("node:fs");
    expect(statSync(url.searchParams.get("host")!).mode & 0o777).toBe(0o700);
  });

  it("runs at background priority, so a busy machine serves the thread that answers webhooks first", async () => {
    const { readFileSync } = await import("node:fs");
    const server = descendants(process.pid).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pglite-server-process");
      } catch {
        return false;
      }
    });
    expect(server).toBeDefined();
    expect(getPriority(server!)).toBe(BACKGROUND_NICENESS);
  });

  it("answers another connection's query once a long statement ends, and the app's loop runs meanwhile", async () => {
    const other = connect(handle);
    try {
      await other`select 1`; // both connected before the race
      await handle.ping();
      const order: string[] = [];
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      const long = handle.executeSql("select pg_sleep(0.5)").then(() => order.push("long"));
      await new Promise((resolve) => setTimeout(resolve, 50)); // the long statement has started
      const [row] = await other<{ n: number }[]>`select 41 + 1 as n`;
      order.push("other");
      await long;
      clearInterval(ticker);
      expect(row!.n).toBe(42);
      expect(order).toEqual(["long", "other"]); // one PostgreSQL session: served in turn, never refused
      expect(ticks).toBeGreaterThan(10); // the loop kept turning through the 500 ms statement
    } finally {
      await other.end();
    }
  });

  it("keeps each client's extended-protocol batches whole when many clients send at once", async () => {
    // Unnamed statements (prepare: false), different shapes per client: a Parse or Bind of one client landing
    // inside another's batch would bind the wrong statement or fail ("unnamed prepared statement does not exist").
    const clients = Array.from({ length: 6 }, () => connect(handle, { prepare: false }));
    try {
      const results = await Promise.all(
        clients.map((sql, c) =>
          Promise.all(
            Array.from({ length: 25 }, async (_, i) => {
              const rows =
                c % 2 === 0
                  ? await sql`select ${i}::int * ${c}::int as v, ${"client " + c}::text as who`
                  : await sql`select ${i + c}::int as v`;
              return rows[0]!.v === (c % 2 === 0 ? i * c : i + c) && (c % 2 === 1 || rows[0]!.who === `client ${c}`);
            }),
          ),
        ),
      );
      expect(results.flat().every(Boolean)).toBe(true);
    } finally {
      await Promise.all(clients.map((sql) => sql.end()));
    }
  });

  it("serves one transaction at a time: another client neither sees nor interleaves with an open one", async () => {
    await handle.executeSql("create table if not exists turns_taken (who text)");
    const other = connect(handle);
    try {
      let seenInside: number | undefined;
      const inside = handle.transaction(async (tx) => {
        await tx.executeSql("insert into turns_taken values ('tx')");
        await new Promise((resolve) => setTimeout(resolve, 200)); // the other client asks meanwhile
        seenInside = Number((await tx.executeSql("select count(*) as n from turns_taken")).rows[0]!.n);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [outside] = await other<{ n: string }[]>`select count(*) as n from turns_taken`;
      await inside;
      expect(seenInside).toBe(1);
      expect(Number(outside!.n)).toBe(1); // answered after the commit, not in the middle of the transaction
    } finally {
      await other.end();
    }
  });

  it("rolls back the transaction of a client that goes away, and serves the others", async () => {
    await handle.executeSql("create table if not exists abandoned (n int)");
    const leaving = connect(handle);
    await leaving`begin`;
    await leaving`insert into abandoned values (1)`;
    await leaving.end({ timeout: 0 }); // gone without commit
    const { rows } = await handle.executeSql("select count(*)::int as n from abandoned");
    expect(rows[0]!.n).toBe(0);
  });

  it("keeps the app's event loop free while the database process runs a 500 ms statement (in-thread PGlite blocks it)", async () => {
    const inThread = new PGlite();
    try {
      await inThread.waitReady;
      const blocked = await loopDelayDuring(() => inThread.query("select pg_sleep(0.5)"));
      const free = await loopDelayDuring(() => handle.executeSql("select pg_sleep(0.5)"));
      console.log(
        `main-thread event-loop delay during a 500 ms statement: in-thread PGlite p99 ${blocked.p99.toFixed(1)} ms / max ${blocked.max.toFixed(1)} ms; ` +
          `embedded process p99 ${free.p99.toFixed(1)} ms / max ${free.max.toFixed(1)} ms`,
      );
      expect(blocked.max).toBeGreaterThan(400); // the statement held the loop
      expect(free.p99 * 4).toBeLessThan(blocked.p99);
      expect(free.max * 4).toBeLessThan(blocked.max);
    } finally {
      await inThread.close();
    }
  });
});
