import { generateKeyPairSync, randomUUID } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import examples from "@octokit/webhooks-examples";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { readEnvConfig } from "../../../src/config/env/env-config.js";
import { createSmeeChannel } from "../../../src/server/setup/create-smee-channel.js";
import { startServer, type RunningServer, type StartServerOptions } from "../../../src/wiring/start-server.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { freePort } from "../../helpers/free-port.js";
import { signature } from "../../helpers/signed-delivery.js";
import { startSmeeStandIn } from "../../helpers/smee-stand-in.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

/**
 * The first hour: the App registered by the setup page gets a webhook URL GitHub can reach (a smee.io
 * channel or PUBLIC_URL), and the app started with its credentials answers deliveries there — directly,
 * or forwarded from the channel.
 */

const running: RunningServer[] = [];
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
  for (const close of closing.splice(0)) await close();
});
afterAll(() => removeTempDirs());

const SECRET = "webhook-secret-from-github";
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

/** A real `ping` payload, as GitHub sends one when an App's webhook is set up. */
function pingPayload(): Record<string, unknown> {
  const list = (Array.isArray(examples) ? examples : (examples as { default: unknown[] }).default) as {
    name: string;
    examples: Record<string, unknown>[];
  }[];
  return structuredClone(list.find((e) => e.name === "ping")!.examples[0]!);
}

/** The headers GitHub sends with `body`, signed with the App's secret. */
function githubHeaders(body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "GitHub-Hookshot/test",
    "x-github-event": "ping",
    "x-github-delivery": randomUUID(),
    "x-hub-signature-256": signature(SECRET, body),
  };
}

async function start(env: Record<string, string>, options: StartServerOptions = {}) {
  const logs = captureLogger();
  const config = readEnvConfig({ HOST: "127.0.0.1", PORT: "0", DATA_DIR: tempDir(), LOG_LEVEL: "debug", ...env });
  const server = await startServer(config, logs.log, options);
  running.push(server);
  const base = `http://127.0.0.1:${server.port}`;
  return { server, logs, base };
}

async function startSetup(env: Record<string, string>, options: StartServerOptions = {}) {
  const started = await start(env, options);
  const code = /\/probot\?setup_code=([0-9a-f]{64})/.exec(started.logs.text())![1]!;
  const page = await fetch(`${started.base}/probot?setup_code=${code}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const cookies = page.headers.getSetCookie();
  const value = /id="manifest" value='([^']*)'/.exec(html)![1]!;
  const manifest = JSON.parse(value.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))) as {
    hook_attributes: { url: string };
    redirect_url: string;
    callback_urls?: string[];
  };
  return { ...started, html, manifest, cookies };
}

/** GitHub's side of the manifest flow: converts a code into the new App's credentials. */
async function fakeGitHub() {
  const conversions: string[] = [];
  const server = createServer((req, res) => {
    const match = /^\/api\/v3\/app-manifests\/([^/]+)\/conversions$/.exec(req.url ?? "");
    if (req.method !== "POST" || !match) return void res.writeHead(404).end();
    conversions.push(match[1]!);
    res.writeHead(201, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: 4242,
        client_id: "Iv1.client",
        client_secret: "client-secret-value",
        webhook_secret: SECRET,
        pem: privateKey,
        html_url: "https://github.example/apps/no-mistakes-test",
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closing.push(() => new Promise<void>((r) => server.close(() => r())));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, conversions };
}

/** Runs in `cwd` with `env` added to process.env (Probot's setup reads both); the returned function puts them back. */
function withProcessState(cwd: string, env: Record<string, string>): () => void {
  const before = process.cwd();
  const saved = { ...process.env };
  process.chdir(cwd);
  Object.assign(process.env, env);
  return () => {
    process.chdir(before);
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  };
}

const appEnv = (port: number, extra: Record<string, string> = {}) => ({
  PORT: String(port),
  APP_ID: "4242",
  PRIVATE_KEY: privateKey,
  WEBHOOK_SECRET: SECRET,
  AGENT: "fake",
  WORKERS: "inline",
  ...extra,
});

describe("setup registers an App GitHub can deliver to", { timeout: 120_000 }, () => {
  it("with PUBLIC_URL: the manifest's webhook URL is PUBLIC_URL plus the webhook path, the page says so, and the registered app answers a signed delivery there with 200", async () => {
    const appPort = await freePort();
    const publicUrl = `http://127.0.0.1:${appPort}`;
    const setup = await startSetup({ PUBLIC_URL: `${publicUrl}/` });

    expect(setup.manifest.hook_attributes.url).toBe(`${publicUrl}/api/github/webhooks`);
    expect(setup.manifest.redirect_url).toBe(`${setup.base}/probot/setup`); // the rest of Probot's manifest is kept
    expect(setup.manifest.callback_urls).toEqual([`${publicUrl}/oauth/callback`]); // the run view's sign-in
    expect(setup.html).toContain(
      `GitHub will send the App's webhooks to <code>${publicUrl}/api/github/webhooks</code>`,
    );
    await setup.server.stop();
    running.splice(running.indexOf(setup.server), 1);

    // The App as registered: its credentials, and GitHub posting to the manifest's URL.
    await start(appEnv(appPort, { PUBLIC_URL: publicUrl }));
    const body = JSON.stringify(pingPayload());
    const delivery = await fetch(setup.manifest.hook_attributes.url, {
      method: "POST",
      headers: githubHeaders(body),
      body,
    });
    expect(delivery.status).toBe(200);
    const forged = await fetch(setup.manifest.hook_attributes.url, {
      method: "POST",
      headers: { ...githubHeaders(body), "x-hub-signature-256": signature("another-secret", body) },
      body,
    });
    expect(forged.status).toBe(400); // the path is the webhook endpoint: it checks the signature
  });

  it("with neither WEBHOOK_PROXY_URL nor PUBLIC_URL: a new smee channel (stand-in) is the manifest's webhook URL, logged and shown on the page", async () => {
    const smee = await startSmeeStandIn();
    closing.push(() => smee.close());
    const setup = await startSetup({}, { createWebhookChannel: () => createSmeeChannel(smee.newChannelUrl) });

    const channel = setup.manifest.hook_attributes.url;
    expect(channel).toMatch(new RegExp(`^${smee.origin}/channel-[a-z0-9]+$`));
    expect(setup.html).toContain(`GitHub will send the App's webhooks to <code>${channel}</code>`);
    const line = setup.logs.lines().find((l) => String(l.msg).startsWith("setup: created the webhook proxy channel"));
    expect(line).toMatchObject({ webhookUrl: channel });
  });

  it("the channel made at setup is saved to .env with the App's credentials GitHub hands back, so the registered app forwards from it", async () => {
    const smee = await startSmeeStandIn();
    closing.push(() => smee.close());
    const github = await fakeGitHub();
    // Probot's setup reads package.json and app.yml from the working directory and writes .env there.
    const cwd = tempDir("nm-setup-cwd-");
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    for (const file of ["package.json", "app.yml"]) copyFileSync(join(root, file), join(cwd, file));
    const restore = withProcessState(cwd, { GHE_HOST: github.host, GHE_PROTOCOL: "http" });
    closing.push(async () => restore());

    const setup = await startSetup({}, { createWebhookChannel: () => createSmeeChannel(smee.newChannelUrl) });
    const channel = setup.manifest.hook_attributes.url;
    const state = /<form action="[^"]*\?state=([0-9a-f]{64})"/.exec(setup.html)![1]!;
    const back = await fetch(`${setup.base}/probot/setup?code=manifest-code&state=${state}`, {
      redirect: "manual",
      headers: { cookie: setup.cookies.map((c) => c.split(";")[0]).join("; ") },
    });
    expect(back.status).toBe(302);
    expect(github.conversions).toEqual(["manifest-code"]);
    const env = readFileSync(join(cwd, ".env"), "utf8");
    expect(env).toContain("APP_ID=4242");
    expect(env).toContain(`WEBHOOK_PROXY_URL=${channel}`);
  });

  it("when no channel can be made: the log and the page say GitHub cannot reach localhost and what to set", async () => {
    const closedPort = await freePort(); // nothing listens there
    const setup = await startSetup(
      {},
      { createWebhookChannel: () => createSmeeChannel(`http://127.0.0.1:${closedPort}/new`) },
    );

    const warn = setup.logs.lines().find((l) => l.level === 40 && String(l.msg).includes("could not create a smee.io"));
    expect(warn?.msg).toContain("GitHub cannot reach localhost");
    expect(warn?.msg).toContain("Set WEBHOOK_PROXY_URL to a smee.io channel (open https://smee.io/new) or PUBLIC_URL");
    expect(setup.html).toContain("Webhooks will not arrive.");
    expect(setup.html).toContain("GitHub cannot reach localhost");
    // The path is still the app's webhook path (not the root, which answers no webhook).
    expect(setup.manifest.hook_attributes.url).toBe(`${setup.base}/api/github/webhooks`);
  });

  it("WEBHOOK_PROXY_URL given to setup is the manifest's webhook URL; no channel is made", async () => {
    let made = 0;
    const setup = await startSetup(
      { WEBHOOK_PROXY_URL: "https://smee.io/an-existing-channel" },
      { createWebhookChannel: async () => `https://smee.io/made-${++made}` },
    );
    expect(setup.manifest.hook_attributes.url).toBe("https://smee.io/an-existing-channel");
    expect(made).toBe(0);
  });
});

describe("WEBHOOK_PROXY_URL", { timeout: 120_000 }, () => {
  it("the app forwards the channel's deliveries (smee stand-in) to its webhook path, where they are verified and answered 200", async () => {
    const smee = await startSmeeStandIn();
    closing.push(() => smee.close());
    const channel = "/channel-for-this-app";
    const app = await start(appEnv(0, { WEBHOOK_PROXY_URL: `${smee.origin}${channel}` }));
    await smee.listening(channel);

    const payload = pingPayload();
    const headers = githubHeaders(JSON.stringify(payload));
    expect(smee.deliver(channel, { ...headers, host: "smee.io" }, payload)).toBe(1);

    const target = `http://127.0.0.1:${app.server.port}/api/github/webhooks`;
    await expect
      .poll(() => app.logs.lines().find((l) => l.msg === `POST ${target} - 200`), { timeout: 10_000 })
      .toMatchObject({ name: "webhook-proxy", source: `${smee.origin}${channel}` });
    expect(app.logs.text()).not.toContain("npm install --save-dev smee-client");
  });

  it("a channel that cannot be reached is logged at error, naming WEBHOOK_PROXY_URL; the app still serves", async () => {
    const closedPort = await freePort();
    const app = await start(appEnv(0, { WEBHOOK_PROXY_URL: `http://127.0.0.1:${closedPort}/channel` }));
    const error = app.logs
      .lines()
      .find((l) => l.level === 50 && String(l.msg).includes("cannot connect to WEBHOOK_PROXY_URL"));
    expect(error).toBeDefined();
    expect((await fetch(`${app.base}/health`)).status).toBe(200);
  });
});

describe("the root page", { timeout: 120_000 }, () => {
  it("in app mode, GET / shows the app's name, its status and where to go next", async () => {
    const app = await start(appEnv(0, { PUBLIC_URL: "https://review.example.com" }));
    const res = await fetch(`${app.base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    // like the run view's pages: nothing runs or loads, no frame, no referrer
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await res.text();
    expect(html).toContain("<h1>no-mistakes");
    expect(html).toContain(`<strong id="status">ok</strong>`);
    expect(html).toContain(`href="https://github.com/settings/apps"`);
    expect(html).toContain("<code>https://review.example.com/api/github/webhooks</code>");
    expect(html).toContain("README");
  });

  it("in setup mode, GET / redirects to the setup page", async () => {
    const setup = await startSetup({ PUBLIC_URL: "https://review.example.com" });
    const res = await fetch(`${setup.base}/`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/probot");
  });
});
