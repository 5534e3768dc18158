import { generateKeyPairSync } from "node:crypto";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { listeningPort, startAppProcess, waitForHttp, type AppProcess } from "../../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { adminUrl, createPostgresDatabase, databaseKinds } from "../../helpers/test-database.js";

const kinds = await databaseKinds();
const running: AppProcess[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
});
afterAll(() => removeTempDirs());

async function timed(url: string): Promise<{ status: number; body: Record<string, any>; ms: number }> {
  const start = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as Record<string, any>;
  return { status: res.status, body, ms: performance.now() - start };
}

/**
 * A TCP relay to PostgreSQL that can go silent: while `hang` is on, open connections stop carrying
 * bytes and new ones are accepted but never relayed — a database that hangs instead of refusing.
 */
async function relayTo(
  target: URL,
): Promise<{ url: (database: string) => string; hang(): void; resume(): void; close(): Promise<void> }> {
  const pairs = new Set<[Socket, Socket]>();
  let hanging = false;
  const server: Server = createServer((client) => {
    client.on("error", () => {});
    if (hanging) return void pairs.add([client, client]); // held open, never answered
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
    pairs.add([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const resume = () => {
    hanging = false; // the silent connections are cut; the app reconnects through a working relay
    for (const [client, upstream] of pairs.values()) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    url: (database) =>
      Object.assign(new URL(target.toString()), {
        hostname: "127.0.0.1",
        port: String(port),
        pathname: `/${database}`,
      }).toString(),
    hang() {
      hanging = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    resume,
    async close() {
      resume();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("health and readiness of the running app", { timeout: 120_000 }, () => {
  // Only this test's own throwaway database is made unavailable: the shared server keeps running.
  it.runIf(kinds.includes("postgres"))(
    "on PostgreSQL: /health answers at once while its database refuses or hangs, /ready says 503 within the bound and recovers",
    async () => {
      const { url, drop } = await createPostgresDatabase();
      const name = new URL(url).pathname.slice(1);
      const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      const relay = await relayTo(new URL(url));
      try {
        const privateKey = generateKeyPairSync("rsa", {
          modulusLength: 2048,
          privateKeyEncoding: { type: "pkcs1", format: "pem" },
          publicKeyEncoding: { type: "spki", format: "pem" },
        }).privateKey;
        const env = {
          PORT: "0",
          DATA_DIR: tempDir(),
          DATABASE_URL: relay.url(name),
          APP_ID: "12345",
          AGENT: "fake",
          PRIVATE_KEY: privateKey,
          WEBHOOK_SECRET: "a-webhook-secret-value",
        };
        const app = startAppProcess(env);
        running.push(app);
        const base = `http://127.0.0.1:${await listeningPort(app)}`;
        await waitForHttp(`${base}/health`, app);
        const baseline = await timed(`${base}/health`);
        const up = await timed(`${base}/ready`);
        expect(up.status).toBe(200);
        expect(up.body).toMatchObject({
          status: "ready",
          mode: "app",
          database: { kind: "postgres", ok: true },
          queue: { started: true },
          intake: { backlog: 0 },
        });

        const waitReady = async () => {
          let back = await timed(`${base}/ready`);
          for (let i = 0; back.status !== 200 && i < 40; i++) {
            await sleep(250);
            back = await timed(`${base}/ready`);
          }
          expect(back.status).toBe(200);
          expect(back.body).toMatchObject({ status: "ready", database: { ok: true } });
          expect((await timed(`${base}/health`)).body).toMatchObject({ status: "ok", database: { ok: true } });
          return back;
        };
        const outage = async (expectedReason: RegExp) => {
          const live = await timed(`${base}/health`);
          expect(live.status).toBe(200);
          // The first request right after the cut shares the app's event loop with its drivers' connection errors
          // (and this machine's two cores with the other tests): some slack, never the ping's second.
          expect(live.ms).toBeLessThan(250);
          const down = await timed(`${base}/ready`);
          expect(down.status).toBe(503);
          expect(down.ms).toBeLessThan(1500);
          expect(down.body).toMatchObject({ status: "not ready", database: { kind: "postgres", ok: false } });
          expect(down.body.reasons[0]).toMatch(expectedReason);
          const degraded = await timed(`${base}/health`);
          expect(degraded.status).toBe(200);
          expect(degraded.ms).toBeLessThan(100);
          expect(degraded.body).toMatchObject({ status: "degraded", database: { kind: "postgres", ok: false } });
          return `/health ${live.ms.toFixed(1)} ms then ${degraded.ms.toFixed(1)} ms, /ready ${down.status} in ${down.ms.toFixed(0)} ms (${down.body.reasons[0]})`;
        };

        // 1. The database refuses: no new connection is allowed, and the app's open ones are cut.
        await admin.unsafe(`alter database ${name} allow_connections false`);
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
        const refused = await outage(/^database: /); // "not currently accepting connections", or the cut connection itself
        await admin.unsafe(`alter database ${name} allow_connections true`);
        const afterRefused = await waitReady();

        // 2. The database hangs: connections stay open and nothing comes back.
        relay.hang();
        const hung = await outage(/^database: no answer from the database within 1000 ms/);
        relay.resume();
        const afterHung = await waitReady();

        console.log(
          `baseline /health ${baseline.ms.toFixed(1)} ms\n` +
            `refused: ${refused}; reopened: /ready ${afterRefused.status} in ${afterRefused.ms.toFixed(0)} ms\n` +
            `hung: ${hung}; resumed: /ready ${afterHung.status} in ${afterHung.ms.toFixed(0)} ms`,
        );
        expect(await app.stop()).toBe(0);
      } finally {
        await admin.unsafe(`alter database ${name} allow_connections true`).catch(() => {});
        await admin.end();
        await relay.close();
        await drop();
      }
    },
  );
});
