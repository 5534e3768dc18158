import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/open-database.js";
import { formatCheck } from "../../src/doctor/doctor-check.js";
import { runChecks } from "../../src/doctor/run-checks.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const GITHUB = "https://api.github.com";
const APP_ID = "4242";
const PUBLIC_URL = "https://review.example.com";
const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});
const GRANTED = { contents: "write", pull_requests: "write", issues: "write", checks: "write", metadata: "read" };
const EVENTS = ["pull_request", "issue_comment", "pull_request_review_comment", "check_run"];

let anthropic: FakeAnthropicServer;
const closing: (() => Promise<void>)[] = [];
beforeAll(async () => {
  anthropic = await startFakeAnthropicServer();
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1");
});
afterEach(() => {
  const unused = nock.pendingMocks();
  nock.cleanAll();
  expect(unused).toEqual([]); // every stand-in endpoint was asked
});
afterAll(async () => {
  await anthropic.close();
  for (const close of closing.splice(0)) await close();
  nock.enableNetConnect();
  removeTempDirs();
});

/** The Authorization headers GitHub received: each must be the App's JWT, issued for APP_ID. */
const authorizations: string[] = [];

/** GET /app: the App, as its JWT shows it. */
function appEndpoint() {
  return nock(GITHUB)
    .get("/app")
    .reply(function () {
      authorizations.push(String(this.req.headers.authorization));
      return [
        200,
        {
          id: Number(APP_ID),
          slug: "no-mistakes",
          name: "no-mistakes",
          html_url: "https://github.com/apps/no-mistakes",
        },
      ];
    });
}

/** GET /app/hook/config: the App's webhook settings (GitHub masks a set secret). */
function hookConfigEndpoint(config: { url: string; content_type?: string; secret?: string | null }) {
  return nock(GITHUB)
    .get("/app/hook/config")
    .reply(200, { content_type: "json", secret: "********", insecure_ssl: "0", ...config });
}

/** GET /app/installations: where the App is installed, with what it was granted. */
function installationsEndpoint(
  installations: { login: string; permissions: Record<string, string>; events: string[] }[],
) {
  return nock(GITHUB)
    .get("/app/installations")
    .query({ per_page: "100" })
    .reply(
      200,
      installations.map((i, n) => ({
        id: n + 1,
        account: { login: i.login, type: "Organization" },
        permissions: i.permissions,
        events: i.events,
      })),
    );
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    APP_ID,
    PRIVATE_KEY: privateKey,
    WEBHOOK_SECRET: "webhook-secret-value",
    PUBLIC_URL,
    AGENT: "claude",
    ANTHROPIC_API_KEY: "sk-ant-test-key-0123456789",
    ANTHROPIC_BASE_URL: anthropic.url,
    AGENT_SANDBOX: "off",
    DATA_DIR: tempDir(),
    ...extra,
  };
}

async function doctor(values: NodeJS.ProcessEnv) {
  const lines: string[] = [];
  const ok = await runChecks(values, (check) => lines.push(formatCheck(check)));
  return { ok, lines };
}

describe("npm run doctor", { timeout: 120_000 }, () => {
  it("a working setup: every line ✓, and it passes", async () => {
    appEndpoint();
    hookConfigEndpoint({ url: `${PUBLIC_URL}/api/github/webhooks` });
    installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);

    const { ok, lines } = await doctor(env());

    expect(lines.map((l) => l.split(":")[0])).toEqual([
      "✓ config",
      "✓ DATA_DIR",
      "✓ private key",
      "✓ GitHub",
      "✓ webhook URL",
      "✓ webhook content type",
      "✓ webhook secret",
      "✓ installation octo-org",
      "✓ agent sandbox",
      "✓ claude model",
      "✓ Anthropic key",
      "✓ database",
    ]);
    expect(ok).toBe(true);
    // GitHub was asked as the App: an RS256 JWT issued for APP_ID.
    const [, payload] = authorizations
      .at(-1)!
      .replace(/^bearer /i, "")
      .split(".");
    expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toMatchObject({ iss: APP_ID });
    // The model key was tried with the free call, and the key was sent.
    const counted = anthropic.requests.filter((r) => r.url === "/v1/messages/count_tokens");
    expect(counted).toHaveLength(1);
    expect(counted[0]!.headers["x-api-key"]).toBe("sk-ant-test-key-0123456789");
  });

  it("a broken setup: ✗ lines with the fix for a wrong webhook URL, a missing permission and a rejected model key; it fails", async () => {
    const rejecting = createServer((req, res) => {
      req.resume();
      res
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
    });
    await new Promise<void>((r) => rejecting.listen(0, "127.0.0.1", r));
    closing.push(() => new Promise<void>((r) => rejecting.close(() => r())));
    appEndpoint();
    hookConfigEndpoint({ url: "http://localhost:3000/api/github/webhooks" });
    installationsEndpoint([
      {
        login: "octo-org",
        permissions: { ...GRANTED, checks: "read" },
        events: EVENTS.filter((e) => e !== "check_run"),
      },
    ]);

    const { ok, lines } = await doctor(
      env({ ANTHROPIC_BASE_URL: `http://127.0.0.1:${(rejecting.address() as AddressInfo).port}` }),
    );

    expect(ok).toBe(false);
    const failed = lines.filter((l) => l.startsWith("✗"));
    expect(failed).toEqual([
      `✗ webhook URL: http://localhost:3000/api/github/webhooks is not where this app listens (${PUBLIC_URL}/api/github/webhooks) — fix: set the Webhook URL at https://github.com/settings/apps/no-mistakes to ${PUBLIC_URL}/api/github/webhooks`,
      expect.stringMatching(
        /^✗ installation octo-org: lacks permissions checks: write \(has read\); events check_run — fix: grant them under Permissions & events at https:\/\/github\.com\/settings\/apps\/no-mistakes, then have octo-org accept/,
      ),
      expect.stringMatching(
        /^✗ Anthropic key: rejected by http:\/\/127\.0\.0\.1:\d+ \(401\) — fix: set ANTHROPIC_API_KEY to a valid key$/,
      ),
    ]);
  });

  it("AGENT_MODEL=claude-opus-4-1: says the CLI sends claude-opus-4-8, that the proxy allows it, and asks the key about that id", async () => {
    appEndpoint();
    hookConfigEndpoint({ url: `${PUBLIC_URL}/api/github/webhooks` });
    installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);
    const before = anthropic.requests.length;

    const { ok, lines } = await doctor(env({ AGENT_MODEL: "claude-opus-4-1", AGENT_SANDBOX: "bubblewrap" }));

    expect(lines).toContain(
      "✓ claude model: claude sends claude-opus-4-8 for AGENT_MODEL=claude-opus-4-1; the model proxy allows it",
    );
    expect(ok).toBe(true);
    const counted = anthropic.requests.slice(before).filter((r) => r.url === "/v1/messages/count_tokens");
    expect(counted.map((r) => (r.body as { model: string }).model)).toEqual(["claude-opus-4-8"]);
  });

  it("a model the provider does not serve: the id sent is named, and the key check says the provider refused that model", async () => {
    // As the API answers token counting for a model it does not serve.
    const provider = createServer((req, res) => {
      req.resume();
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "model: claude-made-up" } }));
    });
    await new Promise<void>((r) => provider.listen(0, "127.0.0.1", r));
    closing.push(() => new Promise<void>((r) => provider.close(() => r())));
    appEndpoint();
    hookConfigEndpoint({ url: `${PUBLIC_URL}/api/github/webhooks` });
    installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);

    const { ok, lines } = await doctor(
      env({
        AGENT_MODEL: "claude-made-up",
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`,
      }),
    );

    expect(ok).toBe(false);
    expect(lines).toContain(
      "✓ claude model: claude sends claude-made-up for AGENT_MODEL=claude-made-up (AGENT_SANDBOX=off: no model proxy)",
    );
    expect(lines.filter((l) => l.startsWith("✗"))).toEqual([
      expect.stringMatching(
        /^✗ Anthropic key: http:\/\/127\.0\.0\.1:\d+ does not serve the model claude-made-up to this key \(404\) — fix: set AGENT_MODEL to a model the key may use$/,
      ),
    ]);
  });

  it("a key of another App: GitHub refuses the JWT, and the fix names APP_ID and PRIVATE_KEY", async () => {
    nock(GITHUB).get("/app").reply(401, { message: "A JSON web token could not be decoded" });

    const { ok, lines } = await doctor(env());

    expect(ok).toBe(false);
    expect(lines.filter((l) => l.startsWith("✗"))).toEqual([
      "✗ GitHub: GET /app refused the App's token (401) — fix: APP_ID and PRIVATE_KEY must be the same App's (its settings page shows the ID; generate a new key there if lost)",
    ]);
  });

  it("an App owned by an organization: the fix points at the organization's App settings", async () => {
    nock(GITHUB)
      .get("/app")
      .reply(200, {
        slug: "no-mistakes",
        name: "no-mistakes",
        html_url: "https://github.com/apps/no-mistakes",
        owner: { login: "octo-org", type: "Organization" },
      });
    hookConfigEndpoint({ url: `${PUBLIC_URL}/hooks`, content_type: "form" });
    installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);

    const { lines } = await doctor(env());

    expect(lines.filter((l) => l.startsWith("✗"))).toEqual([
      expect.stringContaining(
        "fix: set the Webhook URL at https://github.com/organizations/octo-org/settings/apps/no-mistakes to",
      ),
      "✗ webhook content type: form; this app reads JSON deliveries — fix: set the Content type at https://github.com/organizations/octo-org/settings/apps/no-mistakes to application/json",
    ]);
  });

  it("the webhook URL may be the WEBHOOK_PROXY_URL channel", async () => {
    appEndpoint();
    hookConfigEndpoint({ url: "https://smee.io/abc123" });
    installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);

    const { lines } = await doctor(env({ PUBLIC_URL: "", WEBHOOK_PROXY_URL: "https://smee.io/abc123" }));

    expect(lines).toContain("✓ webhook URL: https://smee.io/abc123");
  });

  it("without PUBLIC_URL or WEBHOOK_PROXY_URL, a webhook URL on this machine is refused: GitHub cannot reach it", async () => {
    appEndpoint();
    hookConfigEndpoint({ url: "http://127.0.0.1:3000/api/github/webhooks" });
    installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);

    const { ok, lines } = await doctor(env({ PUBLIC_URL: "" }));

    expect(ok).toBe(false);
    expect(lines.filter((l) => l.startsWith("✗"))).toEqual([
      expect.stringMatching(
        /^✗ webhook URL: .* is this machine's address, which GitHub cannot reach — fix: use a smee\.io channel/,
      ),
    ]);
  });

  it("says the embedded database is in use by a running app, instead of failing on its lock", async () => {
    const dataDir = tempDir();
    const running = await openDatabase({ pgliteDir: join(dataDir, "pglite") }); // the app, holding DATA_DIR's lock
    try {
      appEndpoint();
      hookConfigEndpoint({ url: `${PUBLIC_URL}/api/github/webhooks` });
      installationsEndpoint([{ login: "octo-org", permissions: GRANTED, events: EVENTS }]);

      const { ok, lines } = await doctor(env({ DATA_DIR: dataDir }));

      expect(lines.at(-1)).toMatch(/^✓ database: embedded, in .*: in use by a running app/);
      expect(ok).toBe(true);
    } finally {
      await running.close();
    }
  });

  it("exits 1 with the config problems as ✗ lines", () => {
    const cwd = tempDir(); // no .env there
    const result = spawnSync(
      process.execPath,
      [
        "--import",
        pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href,
        join(ROOT, "src/doctor/run-doctor.ts"),
      ],
      {
        cwd,
        encoding: "utf8",
        env: {
          PATH: process.env.PATH,
          TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json"),
          LOG_LEVEL: "loud",
          PORT: "70000",
        } as unknown as NodeJS.ProcessEnv, // Probot's types narrow LOG_LEVEL to valid values
      },
    );

    expect(result.stdout).toMatch(/^✗ config: PORT: "70000" is not a port number.* — fix: /m);
    expect(result.stdout).toMatch(/^✗ config: LOG_LEVEL: .* — fix: /m);
    expect(result.status).toBe(1);
  });
});
