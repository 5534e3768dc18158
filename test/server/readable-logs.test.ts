import { generateKeyPairSync } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { startServer, type RunningServer } from "../../src/wiring/start-server.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});
afterAll(() => removeTempDirs());

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const INFO = 30;

async function start(level: string, env: Record<string, string>) {
  const logs = captureLogger([], level);
  const config = readEnvConfig({ HOST: "127.0.0.1", PORT: "0", DATA_DIR: tempDir(), ...env });
  const server = await startServer(config, logs.log);
  running.push(server);
  return { logs, base: `http://127.0.0.1:${server.port}`, port: server.port };
}

const app = {
  APP_ID: "4242",
  PRIVATE_KEY: privateKey,
  WEBHOOK_SECRET: "webhook-secret-value",
  AGENT: "fake",
  WORKERS: "inline",
  REDELIVER_INTERVAL: "off",
  PUBLIC_URL: "https://review.example.com",
};

describe("logs a person can read", { timeout: 60_000 }, () => {
  it("says it is listening in one line naming the webhook URL, /health and the root page, without Probot's banner", async () => {
    const { logs, port } = await start("info", app);

    const texts = logs.lines().map((l) => String(l.msg));
    const banner = texts.filter((t) => /listening/i.test(t));
    expect(banner).toEqual([
      `no-mistakes 0.1.0 listening — webhooks https://review.example.com/api/github/webhooks → http://127.0.0.1:${port}/api/github/webhooks, health http://127.0.0.1:${port}/health, home http://127.0.0.1:${port}/`,
    ]);
    expect(banner[0]).not.toContain("\n");
    expect(texts.filter((t) => /Running Probot|Welcome to Probot|^$/.test(t))).toEqual([]);
  });

  it("in setup mode: one line with /health, then the setup URL — no welcome pointing at a page that answers 403", async () => {
    const { logs, port } = await start("info", {});

    const texts = logs.lines().map((l) => String(l.msg));
    expect(texts.filter((t) => /listening|setup: open/i.test(t))).toEqual([
      `no-mistakes 0.1.0 listening at http://127.0.0.1:${port} in setup mode — health http://127.0.0.1:${port}/health; register the GitHub App at the setup URL below`,
      expect.stringMatching(/^setup: open http:\/\/127\.0\.0\.1:\d+\/probot\?setup_code=[0-9a-f]{64} in your browser/),
    ]);
    expect(texts.filter((t) => /Welcome to Probot|Probot is in setup mode|^$/.test(t))).toEqual([]);
  });

  it("logs /health and /ready probes at debug only, and other requests at info without their headers", async () => {
    const { logs, base } = await start("info", app);
    await fetch(`${base}/health`, { headers: { "x-probe": "lb" } });
    await fetch(`${base}/ready`);
    await fetch(`${base}/nowhere`, { headers: { "x-custom": "visible-only-at-debug" } });
    await new Promise((r) => setTimeout(r, 50));

    const requests = logs.lines().filter((l) => l.name === "http");
    expect(requests).toEqual([
      expect.objectContaining({
        level: INFO,
        method: "GET",
        url: "/nowhere",
        status: 404,
        msg: expect.stringMatching(/^GET \/nowhere 404 [\d.]+ms$/),
      }),
    ]);
    expect(logs.text()).not.toContain("visible-only-at-debug");
    expect(logs.text()).not.toContain('"/health"');
    expect(logs.text()).not.toContain("x-probe");
  });

  it("at LOG_LEVEL=debug: probes are logged at debug, with the request headers", async () => {
    const { logs, base } = await start("debug", app);
    await fetch(`${base}/health`, { headers: { "x-probe": "lb" } });
    await new Promise((r) => setTimeout(r, 50));

    const health = logs.lines().filter((l) => l.name === "http" && l.url === "/health");
    expect(health).toEqual([
      expect.objectContaining({ level: 20, status: 200, headers: expect.objectContaining({ "x-probe": "lb" }) }),
    ]);
  });

  it("never logs a session cookie or an OAuth callback's code and state, at debug or at info", async () => {
    const session = "a1b2c3d4e5f6071829304a5b6c7d8e9f-session-cookie-value";
    const oauthState = "f9e8d7c6b5a4-oauth-state-cookie";
    const code = "0123456789abcdef-oauth-code";
    const state = "fedcba9876543210-oauth-state";
    for (const level of ["debug", "info"]) {
      const { logs, base } = await start(level, {
        ...app,
        GITHUB_CLIENT_ID: "Iv1.0123456789abcdef",
        GITHUB_CLIENT_SECRET: "oauth-client-secret-value",
      });
      const res = await fetch(`${base}/oauth/callback?code=${code}&state=${state}&next=%2Frepos`, {
        headers: { cookie: `nm_session=${session}; nm_oauth_state=${oauthState}`, "x-custom": "kept" },
        redirect: "manual",
      });
      await res.text();
      await new Promise((r) => setTimeout(r, 50));

      const callback = logs.lines().filter((l) => l.name === "http" && String(l.url).startsWith("/oauth/callback"));
      expect(callback).toEqual([
        expect.objectContaining({
          url: "/oauth/callback?code=[redacted]&state=[redacted]&next=%2Frepos",
          msg: expect.stringMatching(/^GET \/oauth\/callback\?code=\[redacted\]&state=\[redacted\]&next=%2Frepos \d+ /),
        }),
      ]);
      if (level === "debug") expect(callback[0]!.headers).toMatchObject({ cookie: "[redacted]", "x-custom": "kept" });
      else expect(callback[0]!.headers).toBeUndefined();
      const text = logs.text();
      for (const secret of [session, oauthState, code, state]) expect(text).not.toContain(secret);
    }
  });
});
