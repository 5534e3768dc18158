import { generateKeyPairSync } from "node:crypto";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { freePort } from "../../helpers/free-port.js";
import { startAppProcess, waitForHttp, type AppProcess } from "../../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const running: AppProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});
afterAll(() => removeTempDirs());

/**
 * A working directory like the repository's for the setup flow (it reads package.json and app.yml
 * from the cwd and writes .env there), so nothing here can write the repository's own .env.
 */
function appDir(): string {
  const dir = tempDir("nm-setup-cwd-");
  for (const file of ["package.json", "app.yml"]) copyFileSync(join(ROOT, file), join(dir, file));
  return dir;
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
        webhook_secret: "webhook-secret-from-github",
        pem: "-----BEGIN RSA PRIVATE KEY-----\nnot-a-real-key\n-----END RSA PRIVATE KEY-----\n",
        html_url: "https://github.example/apps/no-mistakes-test",
      }),
    );
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, conversions };
}

const cookieOf = (setCookie: string[], name: string) => setCookie.find((c) => c.startsWith(`${name}=`))?.split(";")[0];

describe("setup mode (npm start without APP_ID)", { timeout: 180_000 }, () => {
  it("answers the setup routes only with the one-time code from the start-up log, and GitHub's round trip writes .env", async () => {
    const cwd = appDir();
    const github = await fakeGitHub();
    const port = await freePort();
    const app = startAppProcess(
      { PORT: String(port), DATA_DIR: join(cwd, "data"), GHE_HOST: github.host, GHE_PROTOCOL: "http" },
      { cwd },
    );
    running.push(app);
    const base = `http://localhost:${port}`;
    const health = await waitForHttp(`${base}/health`, app);
    expect(health.status).toBe(200); // stays open
    const get = async (path: string, cookie?: string) => {
      const res = await fetch(`${base}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
      return {
        status: res.status,
        text: await res.text(),
        cookies: res.headers.getSetCookie(),
        location: res.headers.get("location"),
      };
    };
    const postImport = async (headers: Record<string, string>) =>
      (
        await fetch(`${base}/probot/import`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({
            appId: "999",
            pem: "-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----",
            webhook_secret: "posted-secret",
          }),
        })
      ).status;

    // Without the code: nothing.
    for (const path of ["/probot", "/probot/import", "/probot/setup?code=abc"]) {
      const res = await get(path);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain("Open the URL printed in the no-mistakes start-up log");
    }
    expect(await get("/")).toMatchObject({ status: 302, location: "/probot" }); // the root leads to the setup page
    expect(await postImport({})).toBe(403);
    expect(await postImport({ origin: base })).toBe(403);

    // The code, from the one start-up line.
    const url = /open (http:\/\/\S+\/probot\?setup_code=([0-9a-f]{64})) in your browser/.exec(app.output());
    expect(url).not.toBeNull();
    const [, setupUrl, code] = url!;
    expect(setupUrl).toBe(`http://localhost:${port}/probot?setup_code=${code}`);

    const page = await get(`/probot?setup_code=${code}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("no-mistakes");
    const strict = cookieOf(page.cookies, "no_mistakes_setup")!;
    const lax = cookieOf(page.cookies, "no_mistakes_setup_return")!;
    expect(page.cookies.find((c) => c.startsWith("no_mistakes_setup="))).toMatch(/; HttpOnly; SameSite=Strict$/);
    expect(page.cookies.find((c) => c.startsWith("no_mistakes_setup_return="))).toMatch(
      /; Path=\/probot\/setup; HttpOnly; SameSite=Lax$/,
    );
    const form = /<form action="(http:\/\/[^"]+\/settings\/apps\/new)\?state=([0-9a-f]{64})"/.exec(page.text);
    expect(form?.[1]).toBe(`http://${github.host}/settings/apps/new`);
    const state = form![2]!;
    expect(page.text).toContain(`"redirect_url":"http://localhost:${port}/probot/setup"`); // where GitHub sends the browser back

    // With the cookie: the pages; a change only from this origin.
    expect((await get("/probot/import", strict)).status).toBe(200);
    expect(await postImport({ cookie: strict, origin: "http://evil.example" })).toBe(403);
    expect(await postImport({ cookie: strict })).toBe(403);

    // GitHub's redirect back (cross-site: the browser sends the Lax cookie only) needs the state.
    expect((await get("/probot/setup?code=attacker-code", lax)).status).toBe(403);
    expect(github.conversions).toEqual([]);
    expect(existsSync(join(cwd, ".env"))).toBe(false);

    const back = await get(`/probot/setup?code=manifest-code&state=${state}`, lax);
    expect(back.status).toBe(302);
    expect(back.location).toBe("https://github.example/apps/no-mistakes-test/installations/new");
    expect(github.conversions).toEqual(["manifest-code"]);
    const env = readFileSync(join(cwd, ".env"), "utf8");
    expect(env).toContain("APP_ID=4242");
    expect(env).toContain("WEBHOOK_SECRET=webhook-secret-from-github");

    // Registered: the setup pages are gone until the restart.
    expect((await get(`/probot?setup_code=${code}`)).status).toBe(404);
    expect(await postImport({ cookie: strict, origin: base })).toBe(404);
    expect(readFileSync(join(cwd, ".env"), "utf8")).toBe(env);

    await app.stop();
    const output = app.output();
    expect(output.split(code!).length - 1).toBe(1); // the code: in the start-up line only
    expect(output).not.toContain(strict.split("=")[1]);
    expect(output).not.toContain(lax.split("=")[1]);
    expect(output).not.toContain(state);
  });
});

describe("app mode (APP_ID set)", { timeout: 180_000 }, () => {
  it("has no setup routes", async () => {
    const cwd = appDir();
    const port = await freePort();
    const privateKey = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs1", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    const app = startAppProcess(
      {
        PORT: String(port),
        DATA_DIR: join(cwd, "data"),
        APP_ID: "12345",
        PRIVATE_KEY: privateKey,
        WEBHOOK_SECRET: "a-webhook-secret-value",
        AGENT: "fake",
      },
      { cwd },
    );
    running.push(app);
    const base = `http://localhost:${port}`;
    expect(await (await waitForHttp(`${base}/health`, app)).json()).toMatchObject({ mode: "app" });

    for (const path of ["/probot", "/probot?setup_code=x", "/probot/import", "/probot/setup?code=abc"]) {
      expect((await fetch(`${base}${path}`, { redirect: "manual" })).status, path).toBe(404);
    }
    const post = await fetch(`${base}/probot/import`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ appId: "999", pem: "x", webhook_secret: "y" }),
    });
    expect(post.status).toBe(404);
    expect(existsSync(join(cwd, ".env"))).toBe(false);
    expect(app.output()).not.toContain("to register the GitHub App"); // no setup URL is printed
  });
});
