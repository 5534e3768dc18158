import { createHmac, generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { listeningPort, startAppProcess, waitForHttp, type AppProcess } from "../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createPostgresDatabase, databaseKinds } from "../helpers/test-database.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

const kinds = await databaseKinds();
const SECRET = "crash-test-webhook-secret";
const running: AppProcess[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) {
    app.child.kill("SIGKILL");
    await sleep(50);
  }
});
afterAll(() => removeTempDirs());

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

/** Posts a signed delivery exactly as GitHub does. */
async function deliver(port: number, id: string, payload: Record<string, unknown>): Promise<number> {
  const body = JSON.stringify(payload);
  const res = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/test",
      "x-github-event": "pull_request",
      "x-github-delivery": id,
      "x-hub-signature-256": `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`,
    },
    body,
  });
  await res.text();
  return res.status;
}

describe.runIf(kinds.includes("postgres"))(
  "a delivery answered 200 survives the process being killed",
  { timeout: 240_000 },
  () => {
    it("database stuck → deliveries answered and journaled → SIGKILL → the next start applies them, once", async () => {
      const { url, drop } = await createPostgresDatabase();
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const dataDir = tempDir();
        writeFileSync(join(dataDir, "none.json"), JSON.stringify({ steps: [] }));
        const env = {
          DATA_DIR: dataDir,
          DATABASE_URL: url,
          APP_ID: "4242",
          AGENT: "fake",
          PRIVATE_KEY: privateKey,
          WEBHOOK_SECRET: SECRET,
          // workers would try to fetch the made-up repository; this test is about the intake
          WORKER_CONCURRENCY: "1",
          FAKE_AGENT_SCENARIO: join(dataDir, "none.json"),
        };
        const first = startAppProcess({ ...env, PORT: "0" });
        running.push(first);
        let port = await listeningPort(first);
        await waitForHttp(`http://127.0.0.1:${port}/health`, first);

        // The database stops taking deliveries: a long lock on their table.
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const holding = admin.begin(async (tx) => {
          await tx`lock table webhook_deliveries in access exclusive mode`;
          locked();
          await released;
        });
        await isLocked; // held before the first delivery, however slow the machine

        const shas = ["1", "2", "3"].map((c) => c.repeat(40));
        const statuses: number[] = [];
        for (const [i, headSha] of shas.entries()) {
          const payload = pullRequestPayload({
            action: "synchronize",
            number: 9,
            baseSha: "b".repeat(40),
            headRef: "feature",
            headSha,
            cloneUrl: "https://github.com/octo-org/widgets.git",
            updatedAt: `2026-11-29T00:00:0${i}Z`,
          });
          statuses.push(await deliver(port, `crash-${i}`, payload));
        }
        expect(statuses).toEqual([200, 200, 200]); // answered although nothing could be written
        const health = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
          intake: { backlog: number };
        };
        expect(health.intake.backlog).toBe(3);
        const journal = readdirSync(join(dataDir, "intake")).filter((f) => f.startsWith("journal-"));
        expect(journal).toHaveLength(1);
        expect(readFileSync(join(dataDir, "intake", journal[0]!), "utf8")).toContain("crash-2");

        first.child.kill("SIGKILL");
        await new Promise((resolve) => first.child.once("exit", resolve));
        release();
        await holding;
        expect(await admin`select delivery_id from webhook_deliveries`).toEqual([]);

        const second = startAppProcess({ ...env, PORT: "0" });
        running.push(second);
        port = await listeningPort(second);
        await waitForHttp(`http://127.0.0.1:${port}/health`, second);
        const deadline = Date.now() + 60_000;
        let rows: { delivery_id: string }[] = [];
        while (Date.now() < deadline) {
          rows = await admin<
            { delivery_id: string }[]
          >`select delivery_id from webhook_deliveries order by delivery_id`;
          if (rows.length === 3) break;
          await sleep(100);
        }
        expect(rows.map((r) => r.delivery_id)).toEqual(["crash-0", "crash-1", "crash-2"]);
        const [run] = await admin<{ head_sha: string }[]>`select head_sha from runs where pr_number = 9`;
        expect(run!.head_sha).toBe(shas[2]);
        const jobs = await admin`select data->>'deliveryId' as d from pgboss.job where name = 'no-mistakes-run'`;
        expect(jobs.length).toBeGreaterThanOrEqual(1);
        expect(second.output()).toContain("deliveries from a stopped process taken over");
        expect(readdirSync(join(dataDir, "intake")).filter((f) => f.startsWith("journal-"))).toHaveLength(1); // only the new process's
      } finally {
        await admin.end();
        await drop();
      }
    });
  },
);
