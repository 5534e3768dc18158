import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { guardSetupRoutes, SETUP_COOKIE, SETUP_RETURN_COOKIE } from "../../../src/server/setup/guard-setup-routes.js";
import { captureLogger } from "../../helpers/capture-logger.js";

const CODE = "a".repeat(64);
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** What the guarded handler passed on: the inner handler stands in for Probot's setup app (which writes .env). */
interface Seen {
  method: string;
  url: string;
  cookie?: string;
}

/**
 * The guard around a fake setup handler, served the way Probot's Server does: its request logger
 * (here: a listener that records what it would log) runs before the handlers.
 */
async function serve(options: { registered?: () => boolean } = {}) {
  const seen: Seen[] = [];
  const logged: Array<{ url?: string; headers: IncomingMessage["headers"] }> = [];
  const inner = (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = req.url?.split("?")[0];
    if (req.method === "GET" && path === "/probot") {
      seen.push({ method: req.method, url: req.url ?? "", cookie: req.headers.cookie });
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<form action="https://github.com/settings/apps/new" method="post" target="_blank"><button name="manifest" value='{}'>Register</button></form>`,
        );
      return true;
    }
    if (path === "/" || path?.startsWith("/probot/")) {
      seen.push({ method: req.method ?? "", url: req.url ?? "", cookie: req.headers.cookie });
      res.writeHead(200, { "content-type": "text/plain" }).end("inner");
      return true;
    }
    return false;
  };
  const { log, text } = captureLogger();
  const guard = guardSetupRoutes(async () => inner, { code: CODE, ...options });
  const handler = await guard.handlerFactory(undefined, undefined);
  const server = createServer((req, res) => {
    logged.push({ url: req.url, headers: { ...req.headers } }); // what Probot's request logger sees on arrival
    void Promise.resolve(handler(req, res)).then((handled) => handled || res.writeHead(404).end());
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const setupUrl = guard.listen(server, log, "localhost");
  const port = (server.address() as AddressInfo).port;
  const base = `http://localhost:${port}`;
  const request = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { redirect: "manual", ...init });
    return { status: res.status, text: await res.text(), cookies: res.headers.getSetCookie(), headers: res.headers };
  };
  /** The proof cookies as a browser would keep them, from a first visit with the code. */
  const cookiesFromCode = async () => {
    const first = await request(`/probot?setup_code=${CODE}`);
    const jar = Object.fromEntries(first.cookies.map((c) => c.split(";")[0]!.split("=") as [string, string]));
    const state = /action="[^"]*[?&]state=([0-9a-f]+)"/.exec(first.text)?.[1];
    return {
      strict: `${SETUP_COOKIE}=${jar[SETUP_COOKIE]}`,
      lax: `${SETUP_RETURN_COOKIE}=${jar[SETUP_RETURN_COOKIE]}`,
      state,
      first,
    };
  };
  return { base, port, seen, logged, logText: text, setupUrl, request, cookiesFromCode };
}

describe("guardSetupRoutes", () => {
  it("answers 403 without the code or cookie, naming the start-up log, and never calls the setup handler", async () => {
    const app = await serve();
    for (const path of [
      "/probot",
      "/probot/import",
      "/probot/setup?code=abc",
      "/probot/success",
      `/probot?setup_code=${"b".repeat(64)}`,
      "/probot?setup_code=",
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(403);
      expect(res.text).toContain("URL printed in the no-mistakes start-up log");
      expect(res.cookies).toEqual([]);
    }
    const post = await app.request("/probot/import", {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.base },
      body: JSON.stringify({ appId: "1", pem: "x", webhook_secret: "y" }),
    });
    expect(post.status).toBe(403);
    const root = await app.request("/");
    expect(root.status).toBe(302); // the root leads to the setup page, which asks for the code
    expect(root.headers.get("location")).toBe("/probot");
    expect(root.cookies).toEqual([]);
    expect(app.seen).toEqual([]);
  });

  it("leaves other routes to the other handlers", async () => {
    const app = await serve();
    expect((await app.request("/health")).status).toBe(404); // not answered by the guard: the server's 404
    expect((await app.request("/api/github/webhooks", { method: "POST", body: "{}" })).status).toBe(404);
    expect(app.seen).toEqual([]);
  });

  it("with the code: 200 and HttpOnly cookies (Strict for every route, Lax for GitHub's redirect back only); the handler never sees the code", async () => {
    const app = await serve();
    const { first, state } = await app.cookiesFromCode();

    expect(first.status).toBe(200);
    expect(first.cookies).toHaveLength(2);
    expect(first.cookies[0]).toMatch(new RegExp(`^${SETUP_COOKIE}=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict$`));
    expect(first.cookies[1]).toMatch(
      new RegExp(`^${SETUP_RETURN_COOKIE}=[0-9a-f]{64}; Path=/probot/setup; HttpOnly; SameSite=Lax$`),
    );
    expect(first.cookies.join()).not.toContain(CODE);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("referrer-policy")).toBe("strict-origin");
    expect(state).toMatch(/^[0-9a-f]{64}$/); // the manifest form carries a state GitHub hands back
    expect(app.seen).toEqual([{ method: "GET", url: "/probot", cookie: undefined }]);
    expect(app.logged.map((l) => l.url)).toEqual(["/probot"]); // the request log never sees the code
  });

  it("with the Strict cookie: 200 on every page; the cookie is taken out of the request before logging", async () => {
    const app = await serve();
    const { strict } = await app.cookiesFromCode();
    for (const path of ["/probot", "/probot/import", "/probot/success"]) {
      expect((await app.request(path, { headers: { cookie: `other=1; ${strict}` } })).status, path).toBe(200);
    }
    expect((await app.request("/", { headers: { cookie: `other=1; ${strict}` } })).status).toBe(302); // to /probot
    expect(app.seen.slice(1).map((s) => s.cookie)).toEqual(["other=1", "other=1", "other=1"]);
    expect(app.logged.slice(1).map((l) => l.headers.cookie)).toEqual(["other=1", "other=1", "other=1", "other=1"]);
    const forged = await app.request("/probot", { headers: { cookie: `${SETUP_COOKIE}=${"c".repeat(64)}` } });
    expect(forged.status).toBe(403);
  });

  it("POST needs the cookie and an Origin naming this host: cross-origin, missing or null Origin are refused", async () => {
    const app = await serve();
    const { strict } = await app.cookiesFromCode();
    const post = (headers: Record<string, string>, query = "") =>
      app.request(`/probot/import${query}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: "{}",
      });

    const crossOrigin = await post({ cookie: strict, origin: "http://evil.example" });
    expect(crossOrigin.status).toBe(403);
    expect(crossOrigin.text).toContain("Cross-origin request refused");
    expect((await post({ cookie: strict, origin: `http://localhost:${app.port + 1}` })).status).toBe(403); // same site, other origin
    expect((await post({ cookie: strict })).status).toBe(403); // fetch adds no Origin when none is given
    expect((await post({ cookie: strict, origin: "null" })).status).toBe(403);
    expect((await post({ cookie: strict, origin: app.base, referer: "http://evil.example/page" })).status).toBe(403);
    expect((await post({ origin: app.base }, `?setup_code=${CODE}`)).status).toBe(403); // the code alone does not do for a change
    expect(app.seen.filter((s) => s.method === "POST")).toEqual([]);

    const sameOrigin = await post({ cookie: strict, origin: app.base, referer: `${app.base}/probot/import` });
    expect(sameOrigin.status).toBe(200);
    expect(app.seen.filter((s) => s.method === "POST")).toHaveLength(1);
  });

  it("GitHub's redirect back to /probot/setup works with only the Lax cookie and the state from the form, and not without the state", async () => {
    const app = await serve();
    const { lax, strict, state } = await app.cookiesFromCode();
    const back = (query: string, cookie?: string) =>
      app.request(`/probot/setup?${query}`, { headers: cookie ? { cookie } : {} });

    // A page elsewhere can navigate the browser here (Lax cookie sent) but does not know the state.
    expect((await back("code=attacker", lax)).status).toBe(403);
    expect((await back(`code=attacker&state=${"d".repeat(64)}`, lax)).status).toBe(403);
    expect((await back(`code=attacker&state=${state}`)).status).toBe(403); // the state alone is not enough either
    expect((await back("code=abc", strict)).status).toBe(403); // nor the Strict cookie without the state
    expect(app.seen.filter((s) => s.url.startsWith("/probot/setup"))).toEqual([]);

    const ok = await back(`code=abc&state=${state}`, lax);
    expect(ok.status).toBe(200);
    expect(app.seen.at(-1)).toEqual({ method: "GET", url: "/probot/setup?code=abc", cookie: undefined });
    expect(app.logged.at(-1)?.url).toBe("/probot/setup?code=abc");
  });

  it("serves nothing but the success page once the App is registered", async () => {
    let registered = false;
    const app = await serve({ registered: () => registered });
    const { strict } = await app.cookiesFromCode();
    registered = true;
    const again = await app.request(`/probot?setup_code=${CODE}`);
    expect(again.status).toBe(404);
    expect(again.text).toContain("Restart no-mistakes");
    expect(
      (
        await app.request("/probot/import", {
          method: "POST",
          headers: { cookie: strict, origin: app.base },
          body: "{}",
        })
      ).status,
    ).toBe(404);
    expect((await app.request("/probot/success", { headers: { cookie: strict } })).status).toBe(200);
    expect((await app.request("/probot/success")).status).toBe(403);
  });

  it("logs the URL with the code in one line, and the code nowhere else", async () => {
    const app = await serve();
    await app.cookiesFromCode();
    await app.request(`/probot/import?setup_code=${CODE}`, {
      headers: { referer: `${app.base}/probot?setup_code=${CODE}` },
    });

    expect(app.setupUrl).toBe(`http://localhost:${app.port}/probot?setup_code=${CODE}`);
    const lines = app
      .logText()
      .split("\n")
      .filter((l) => l.includes(CODE));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: expect.stringContaining(app.setupUrl) });
    expect(JSON.stringify(app.logged)).not.toContain(CODE); // URL and Referer, as the request log sees them
  });

  it("makes a different random code each time (256 bits, hex)", async () => {
    const { log, text } = captureLogger();
    const urls = [0, 1].map(() => {
      const server = createServer();
      return guardSetupRoutes(async () => () => false).listen(server, log, "0.0.0.0");
    });
    const codes = urls.map((u) => new URL(u).searchParams.get("setup_code"));
    expect(codes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(codes[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(codes[0]).not.toBe(codes[1]);
    expect(urls[0]).toMatch(/^http:\/\/localhost:\d+\/probot\?setup_code=/);
    expect(text()).toContain(codes[0]);
  });
});
