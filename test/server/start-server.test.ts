import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port.js";
import { listeningPort, startAppProcess, waitForHttp, type AppProcess } from "../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createPostgresDatabase, databaseKinds } from "../helpers/test-database.js";

const kinds = await databaseKinds();
const running: AppProcess[] = [];

afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
});
afterAll(() => removeTempDirs());

/** A GitHub App private key as GitHub hands it out (PKCS#1 PEM). */
function appPrivateKey(): string {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
}

describe("npm start", { timeout: 180_000 }, () => {
  it("serves /health and GitHub's setup flow on the embedded database when no App is registered", async () => {
    const port = await freePort();
    const dataDir = join(tempDir(), "data"); // a parent that does not exist yet
    const app = startAppProcess({ PORT: String(port), DATA_DIR: dataDir });
    running.push(app);

    const health = await waitForHttp(`http://localhost:${port}/health`, app);

    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({
      status: "ok",
      version: "0.1.0",
      mode: "setup",
      database: { kind: "pglite", ok: true, ageMs: expect.any(Number) }, // the last known state, and how old it is
    });
    expect(existsSync(join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    const setup = await fetch(`http://localhost:${port}/probot`);
    expect(setup.status).toBe(403); // only with the one-time code from the start-up log: test/server/setup/setup-mode-process.test.ts
    const code = /\/probot\?setup_code=([0-9a-f]{64})/.exec(app.output())?.[1];
    const withCode = await fetch(`http://localhost:${port}/probot?setup_code=${code}`);
    expect(withCode.status).toBe(200);
    expect(await withCode.text()).toContain("no-mistakes");
    expect(await app.stop()).toBe(0); // SIGTERM stops it cleanly
  });

  it.runIf(kinds.includes("postgres"))(
    "loads the app on PostgreSQL when credentials are given, and redacts them from logs",
    async () => {
      const { url, drop } = await createPostgresDatabase();
      try {
        const privateKey = appPrivateKey();
        const app = startAppProcess({
          PORT: "0",
          DATA_DIR: tempDir(),
          DATABASE_URL: url,
          APP_ID: "12345",
          AGENT: "fake",
          PRIVATE_KEY: privateKey,
          WEBHOOK_SECRET: "a-webhook-secret-value",
          LOG_LEVEL: "debug",
        });
        running.push(app);

        const port = await listeningPort(app);
        const health = await waitForHttp(`http://localhost:${port}/health`, app);

        expect(await health.json()).toMatchObject({
          status: "ok",
          mode: "app",
          database: { kind: "postgres", ok: true },
        });
        const unsigned = await fetch(`http://localhost:${port}/api/github/webhooks`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-github-event": "ping", "x-github-delivery": "d-1" },
          body: "{}",
        });
        expect(unsigned.status).toBeGreaterThanOrEqual(400); // webhooks must be signed
        await app.stop();
        expect(app.output()).toContain("no-mistakes loaded");
        expect(app.output()).not.toContain("a-webhook-secret-value");
        expect(app.output()).not.toContain(privateKey.split("\n")[1]);
      } finally {
        await drop();
      }
    },
  );

  it("with a real agent, refuses to start when the sandbox cannot confine, naming the fix; starts with AGENT_SANDBOX=off, saying so", async () => {
    const privateKey = appPrivateKey();
    // No bwrap on this PATH (the app itself is started by absolute path).
    const env = {
      PATH: tempDir("nm-empty-path-"),
      APP_ID: "12345",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "a-webhook-secret-value",
      AGENT: "claude",
      ANTHROPIC_API_KEY: "sk-ant-startup-test-key",
    };

    const refused = startAppProcess({ ...env, PORT: "0", DATA_DIR: tempDir() });
    running.push(refused);
    const [code] = (await once(refused.child, "exit")) as [number];
    expect(code).toBe(1);
    expect(refused.output()).toContain("The agent sandbox is invalid");
    expect(refused.output()).toContain("bubblewrap cannot confine the agent here");
    expect(refused.output()).toContain("apt-get install bubblewrap");
    expect(refused.output()).toContain(
      "--security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined",
    );
    expect(refused.output()).toContain("AGENT_SANDBOX=off");

    const unconfined = startAppProcess({ ...env, PORT: "0", DATA_DIR: tempDir(), AGENT_SANDBOX: "off" });
    running.push(unconfined);
    const port = await listeningPort(unconfined);
    const health = await waitForHttp(`http://localhost:${port}/health`, unconfined);
    expect(await health.json()).toMatchObject({ status: "ok", mode: "app", sandbox: "off" });
    expect(unconfined.output()).toContain("AGENT_SANDBOX=off: agent CLIs run UNCONFINED");
    await unconfined.stop();
  });

  it("with a real agent and bubblewrap, probes the sandbox at start and reports it in /health", async () => {
    const privateKey = appPrivateKey();
    const app = startAppProcess({
      PORT: "0",
      DATA_DIR: tempDir(),
      APP_ID: "12345",
      PRIVATE_KEY: privateKey,
      WEBHOOK_SECRET: "a-webhook-secret-value",
      AGENT: "codex",
      OPENAI_API_KEY: "sk-startup-test-key",
    });
    running.push(app);
    const port = await listeningPort(app);
    const health = await waitForHttp(`http://localhost:${port}/health`, app);
    expect(await health.json()).toMatchObject({ status: "ok", mode: "app", sandbox: "bubblewrap" });
    expect(app.output()).toContain("agent sandbox ready");
    await app.stop();
  });

  it("refuses to start with a bad environment and names every problem", async () => {
    const app = startAppProcess({ PORT: "99999", DATABASE_URL: "mysql://x", APP_ID: "12345", DATA_DIR: tempDir() });
    running.push(app);
    const [code] = (await once(app.child, "exit")) as [number];
    expect(code).toBe(1);
    const out = app.output();
    expect(out).toContain("PORT");
    expect(out).toContain("DATABASE_URL");
    expect(out).toContain("PRIVATE_KEY or PRIVATE_KEY_PATH");
    expect(out).toContain("WEBHOOK_SECRET");
  });
});
