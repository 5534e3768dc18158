import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseCheck } from "../../../src/server/health/database-check.js";
import { createHealthHandler, type HealthInfo } from "../../../src/server/health/health-handler.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A database whose ping never settles: a real hang, not a slow answer. */
function hungDatabase() {
  const calls = { pings: 0 };
  return { calls, database: { kind: "postgres", ping: () => (calls.pings++, new Promise<void>(() => {})) } };
}

const healthyDatabase = { kind: "pglite", ping: async () => {} };

/** Serves the handler over real HTTP, as Probot's server does (404 for what it declines). */
async function serve(info: HealthInfo): Promise<string> {
  const handler = createHealthHandler(info);
  const server = createServer((req, res) => {
    void handler(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function timed(url: string): Promise<{ status: number; body: Record<string, any>; ms: number }> {
  const start = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as Record<string, any>;
  return { status: res.status, body, ms: performance.now() - start };
}

describe("health handler", () => {
  it("/health answers 200 in under 100 ms while the database ping hangs forever; /ready answers 503 within the 1 s bound", async () => {
    const { calls, database } = hungDatabase();
    const base = await serve({
      version: "1.2.3",
      mode: "app",
      database,
      sandbox: "off",
      intake: () => ({ backlog: () => 2 }),
      queue: () => ({}),
    });
    await fetch(`${base}/not-health`); // warms up this process's fetch client (its first call loads undici), not the handler

    const first = await timed(`${base}/health`);
    expect(first.status).toBe(200);
    expect(first.ms).toBeLessThan(100);
    expect(first.body).toMatchObject({
      status: "starting",
      version: "1.2.3",
      mode: "app",
      sandbox: "off",
      database: { kind: "postgres", ok: null },
      intake: { backlog: 2 },
    });

    const ready = await timed(`${base}/ready`);
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(1500);
    expect(ready.body).toMatchObject({
      status: "not ready",
      database: { kind: "postgres", ok: false, timeoutMs: 1000, lastOkAgoMs: null },
      queue: { started: true },
      intake: { backlog: 2 },
    });
    expect(ready.body.reasons).toEqual([
      expect.stringMatching(/^database: no answer from the database within 1000 ms/),
    ]);

    // The last known state is now "not answering"; liveness still answers at once, and says so.
    for (const path of ["/health", "/healthz"]) {
      const health = await timed(`${base}${path}`);
      expect(health.status).toBe(200);
      expect(health.ms).toBeLessThan(100);
      expect(health.body).toMatchObject({
        status: "degraded",
        database: { ok: false, error: expect.stringContaining("no answer") },
      });
      expect(health.body.database.ageMs).toBeGreaterThanOrEqual(0);
      console.log(`hung database: ${path} after the timeout ${health.ms.toFixed(1)} ms`);
    }

    // A probe while that ping is still stuck answers at once instead of waiting again, and starts no second ping.
    const again = await timed(`${base}/readyz`);
    expect(again.status).toBe(503);
    expect(again.ms).toBeLessThan(100);
    expect(calls.pings).toBe(1);
    console.log(
      `hung database: /health ${first.ms.toFixed(1)} ms, /ready ${ready.ms.toFixed(0)} ms, /ready again ${again.ms.toFixed(1)} ms`,
    );
  });

  it("/ready answers 200 with the database, queue and intake when the database answers", async () => {
    const base = await serve({
      version: "1.2.3",
      mode: "app",
      database: healthyDatabase,
      intake: () => ({ backlog: () => 0 }),
      queue: () => ({}),
    });
    const ready = await timed(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: "ready",
      version: "1.2.3",
      mode: "app",
      database: {
        kind: "pglite",
        ok: true,
        ageMs: expect.any(Number),
        timeoutMs: 1000,
        lastOkAgoMs: expect.any(Number),
      },
      queue: { started: true },
      intake: { backlog: 0 },
    });
    const health = await timed(`${base}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({
      status: "ok",
      version: "1.2.3",
      mode: "app",
      database: { kind: "pglite", ok: true, ageMs: expect.any(Number) },
      intake: { backlog: 0 },
    });
    expect((await fetch(`${base}/other`)).status).toBe(404);
  });

  it("/ready is 503 in app mode until the queue is started, and 503 with the error when the ping fails", async () => {
    let queue: object | undefined;
    const base = await serve({ version: "1", mode: "app", database: healthyDatabase, queue: () => queue });
    const notYet = await timed(`${base}/ready`);
    expect(notYet.status).toBe(503);
    expect(notYet.body).toMatchObject({ queue: { started: false }, reasons: ["queue: not started"] });
    queue = {};
    expect((await timed(`${base}/ready`)).status).toBe(200);

    const failing = await serve({
      version: "1",
      mode: "setup",
      database: { kind: "postgres", ping: async () => Promise.reject(new Error("connection refused")) },
    });
    const refused = await timed(`${failing}/ready`);
    expect(refused.status).toBe(503);
    expect(refused.ms).toBeLessThan(100);
    expect(refused.body).toMatchObject({
      database: { ok: false, error: "connection refused" },
      reasons: ["database: connection refused"],
    });
    expect(refused.body).not.toHaveProperty("queue"); // setup mode runs no queue
    expect((await timed(`${failing}/health`)).body).toMatchObject({
      status: "degraded",
      database: { ok: false, error: "connection refused" },
    });
  });
});

describe("DatabaseCheck", () => {
  it("gives up a ping stuck past the abandon time, so a database that comes back is seen ready again", async () => {
    let hang = true;
    let pings = 0;
    const check = new DatabaseCheck(
      { kind: "postgres", ping: () => (pings++, hang ? new Promise<void>(() => {}) : Promise.resolve()) },
      { timeoutMs: 100, abandonAfterMs: 300 },
    );

    expect((await check.check()).ok).toBe(false);
    expect((await check.check()).ok).toBe(false); // joins the stuck ping
    expect(pings).toBe(1);
    hang = false;
    await sleep(320);
    const back = await check.check(); // the stuck ping is abandoned; a new one answers
    expect(back).toMatchObject({ ok: true });
    expect(back).not.toHaveProperty("error");
    expect(pings).toBe(2);
    expect(check.lastOkAgoMs()).toBeLessThan(50);
  });

  it("refreshIfOlderThan never waits and keeps one ping in flight", async () => {
    let release!: () => void;
    let pings = 0;
    const check = new DatabaseCheck({
      kind: "pglite",
      ping: () => (pings++, new Promise<void>((resolve) => (release = resolve))),
    });
    check.refreshIfOlderThan(0);
    check.refreshIfOlderThan(0);
    await Promise.resolve();
    expect(pings).toBe(1);
    expect(check.last().ok).toBeNull();
    release();
    await sleep(0);
    expect(check.last()).toMatchObject({ ok: true });
    check.refreshIfOlderThan(60_000); // fresh enough: no ping
    await Promise.resolve();
    expect(pings).toBe(1);
  });
});
