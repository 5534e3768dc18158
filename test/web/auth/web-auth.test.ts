import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EnvConfig } from "../../../src/config/env/env-config.js";
import { webSessions } from "../../../src/db/schema.js";
import { createWebAuth, type WebAuth, type WebAuthDeps } from "../../../src/web/auth/web-auth.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { startGitHubHttpRelay } from "../../helpers/github-http-relay.js";
import { GitHubStandIn, OAUTH_CLIENT, type OAuthPerson, type StandInOptions } from "../../helpers/github-stand-in.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";
import { CookieBrowser } from "./cookie-browser.js";

const kinds = await databaseKinds();
const INSTALLATION_ID = 31;
const ALICE: OAuthPerson = { login: "alice", id: 501, repositories: [11, 12] };
const GITHUB_COM: EnvConfig["github"] = {
  webOrigin: "https://github.com",
  host: "github.com",
  protocol: "https",
  gitHosts: ["github.com"],
};

interface World {
  auth: WebAuth;
  standIn: GitHubStandIn;
  browser: CookieBrowser;
  origin: string;
  logs: ReturnType<typeof captureLogger>;
  clock: { now: number };
}

describe.each(kinds)("web sign-in (%s)", (kind) => {
  let database: TestDatabase;
  const servers: Server[] = [];
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith("127.0.0.1:"));
  });
  afterEach(async () => {
    nock.cleanAll();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const close of closers.splice(0)) await close();
    await database.handle.db.delete(webSessions);
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await database.dispose();
  });

  /** The sign-in behind a real HTTP server whose other pages say who is signed in. */
  async function world(
    options: {
      config?: Partial<WebAuthDeps["config"]>;
      standIn?: Partial<StandInOptions>;
      appOwner?: WebAuthDeps["appOwner"];
    } = {},
  ): Promise<World> {
    const standIn = new GitHubStandIn({
      owner: "octo-org",
      repo: "widgets",
      installationId: INSTALLATION_ID,
      bareRepo: "/nonexistent",
      baseRef: "main",
      ...options.standIn,
    });
    standIn.install();
    const logs = captureLogger([OAUTH_CLIENT.clientSecret]);
    const clock = { now: Date.parse("2026-12-04T12:00:00Z") };
    const auth = createWebAuth({
      database: database.handle.db,
      config: { web: { oauth: OAUTH_CLIENT, admins: [] }, github: GITHUB_COM, ...options.config },
      log: logs.log,
      now: () => clock.now,
      ...(options.appOwner ? { appOwner: options.appOwner } : {}),
    });
    const server = createServer((req, res) => {
      void (async () => {
        if (await auth.routes(req, res)) return;
        const user = await auth.signedIn(req);
        res.writeHead(user ? 200 : 401, { "content-type": "text/plain" });
        res.end(user ? `signed in as ${user.login} (${user.id})` : "not signed in");
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { auth, standIn, browser: new CookieBrowser(origin), origin, logs, clock };
  }

  /** /login → GitHub's authorize page (signs `person` in) → back to the callback; the callback's answer. */
  async function signIn(w: World, next?: string, person: OAuthPerson = ALICE) {
    w.standIn.signInAs(person);
    const login = await w.browser.open(next === undefined ? "/login" : `/login?next=${encodeURIComponent(next)}`);
    expect(login.status).toBe(302);
    const authorize = await w.browser.open(login.location!);
    expect(authorize.status, authorize.body).toBe(302);
    // Back through PUBLIC_URL (a proxy in front of the app) when one is set: the same path on the app.
    const back = new URL(authorize.location!);
    const callback = await w.browser.open(
      back.origin === w.origin ? back.toString() : `${back.pathname}${back.search}`,
    );
    return { login, authorize, callback };
  }

  const rows = () => database.handle.db.select().from(webSessions);

  it("signs a person in through GitHub's web flow: the state checked, the code exchanged once, the token sealed", async () => {
    const w = await world();
    const { login, authorize, callback } = await signIn(w, "/runs/7?tab=findings");

    const authorizeUrl = new URL(login.location!);
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(authorizeUrl.searchParams.get("client_id")).toBe(OAUTH_CLIENT.clientId);
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(`${w.origin}/oauth/callback`);
    const state = authorizeUrl.searchParams.get("state")!;
    expect(state.length).toBeGreaterThanOrEqual(40);
    const stateCookie = login.setCookies.find((c) => c.name === "nm_oauth_state")!;
    expect(stateCookie.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/oauth/callback" });
    expect(Number(stateCookie.attributes["max-age"])).toBeGreaterThan(0);
    expect(stateCookie.attributes.secure).toBeUndefined(); // plain http here
    expect(new URL(authorize.location!).searchParams.get("state")).toBe(state);

    expect(callback.status).toBe(302);
    expect(callback.location).toBe("/runs/7?tab=findings");
    const session = callback.setCookies.find((c) => c.name === "nm_session")!;
    expect(session.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/", "max-age": "28800" });
    expect(session.attributes.secure).toBeUndefined();
    expect(callback.setCookies.find((c) => c.name === "nm_oauth_state")?.attributes["max-age"]).toBe("0");

    // The code went to GitHub once, with the client's credentials and the same redirect_uri.
    const exchanges = w.standIn.sent("POST", "/login/oauth/access_token");
    expect(exchanges).toHaveLength(1);
    const code = new URL(authorize.location!).searchParams.get("code")!;
    expect(new URLSearchParams(exchanges[0]!.body as string).get("code")).toBe(code);
    expect(Object.fromEntries(new URLSearchParams(exchanges[0]!.body as string))).toEqual({
      client_id: OAUTH_CLIENT.clientId,
      client_secret: OAUTH_CLIENT.clientSecret,
      code,
      redirect_uri: `${w.origin}/oauth/callback`,
    });
    const [token] = [...w.standIn.userTokens.keys()];
    expect(token).toMatch(/^ghu_/);
    expect(w.standIn.sent("GET", /\/user$/)[0]!.authorization).toBe(`Bearer ${token}`);

    const page = await w.browser.open("/repos");
    expect(page.body).toBe("signed in as alice (501)");

    const [row] = await rows();
    expect(row).toMatchObject({ userId: 501, login: "alice" });
    expect(row!.id).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.id).not.toBe(session.value); // the cookie's value is not the row's key
    expect(row!.expiresAt.getTime()).toBe(w.clock.now + 8 * 3_600_000);
    for (const where of [
      row!.tokenCiphertext,
      JSON.stringify(row),
      ...w.browser.setCookies.map((c) => c.raw),
      ...w.browser.bodies,
      w.logs.text(),
    ])
      expect(where).not.toContain(token);
    expect(w.logs.text()).not.toContain(code);
    expect(w.logs.text()).not.toContain(OAUTH_CLIENT.clientSecret);
    expect(w.logs.lines().some((l) => l.msg === "web: signed in" && l.login === "alice")).toBe(true);
  });

  it.each([
    { name: "a state that differs", tamper: (url: URL) => url.searchParams.set("state", "x".repeat(43)) },
    { name: "no state in the answer", tamper: (url: URL) => url.searchParams.delete("state") },
    {
      name: "no state cookie",
      tamper: (_url: URL, browser: CookieBrowser) => browser.cookies.delete("nm_oauth_state"),
    },
  ])("refuses a callback with $name: 400, no code exchanged, no session", async ({ tamper }) => {
    const w = await world();
    w.standIn.signInAs(ALICE);
    const login = await w.browser.open("/login");
    const authorize = await w.browser.open(login.location!);
    const back = new URL(authorize.location!);
    tamper(back, w.browser);

    const callback = await w.browser.open(back.toString());
    expect(callback.status).toBe(400);
    expect(callback.body).toContain("Sign-in could not be checked");
    expect(callback.setCookies.map((c) => c.name)).not.toContain("nm_session");
    expect(w.standIn.sent("POST", "/login/oauth/access_token")).toHaveLength(0);
    expect(await rows()).toHaveLength(0);
  });

  it("exchanges a code once: the same callback replayed (state cookie kept) is refused by GitHub and stores nothing", async () => {
    const w = await world();
    w.standIn.signInAs(ALICE);
    const login = await w.browser.open("/login");
    const stateCookie = w.browser.cookies.get("nm_oauth_state")!;
    const authorize = await w.browser.open(login.location!);
    expect((await w.browser.open(authorize.location!)).status).toBe(302);

    const replay = new CookieBrowser(w.origin);
    replay.cookies.set("nm_oauth_state", stateCookie);
    const again = await replay.open(authorize.location!);
    expect(again.status).toBe(400);
    expect(again.body).toContain("bad_verification_code");
    expect(again.setCookies.map((c) => c.name)).not.toContain("nm_session");
    expect(w.standIn.sent("POST", "/login/oauth/access_token")).toHaveLength(2);
    expect(await rows()).toHaveLength(1); // the first sign-in's only
  });

  it("answers GitHub's error for a refused code with a 400 page and nothing stored", async () => {
    const w = await world();
    w.standIn.signInAs(ALICE);
    const login = await w.browser.open("/login");
    const state = new URL(login.location!).searchParams.get("state")!;
    const made = await w.browser.open(`/oauth/callback?code=not-a-code-github-gave&state=${state}`);
    expect(made.status).toBe(400);
    expect(made.body).toContain("GitHub refused the sign-in code (bad_verification_code)");
    expect(await rows()).toHaveLength(0);
    expect(w.standIn.sent("GET", /\/user$/)).toHaveLength(0);
  });

  it("says when the person declined on GitHub", async () => {
    const w = await world();
    const login = await w.browser.open("/login");
    const state = new URL(login.location!).searchParams.get("state")!;
    const declined = await w.browser.open(
      `/oauth/callback?error=access_denied&error_description=The+user+has+denied+your+application+access.&state=${state}`,
    );
    expect(declined.status).toBe(400);
    expect(declined.body).toContain("The user has denied your application access.");
    expect(await rows()).toHaveLength(0);
  });

  it("marks both cookies Secure behind TLS: PUBLIC_URL https (and redirect_uri from it), or x-forwarded-proto https", async () => {
    const publicUrl = "https://review.example.com";
    const w = await world({ config: { publicUrl } });
    const { login, callback } = await signIn(w);
    expect(new URL(login.location!).searchParams.get("redirect_uri")).toBe(`${publicUrl}/oauth/callback`);
    expect(login.setCookies.find((c) => c.name === "nm_oauth_state")!.attributes.secure).toBe(true);
    expect(callback.setCookies.find((c) => c.name === "nm_session")!.attributes.secure).toBe(true);
    expect(w.standIn.sent("POST", "/login/oauth/access_token")[0]!.body).toContain(
      `redirect_uri=${encodeURIComponent(`${publicUrl}/oauth/callback`)}`,
    );

    const proxied = await world();
    const behindProxy = { "x-forwarded-proto": "https" };
    proxied.standIn.signInAs(ALICE);
    const start = await proxied.browser.open("/login", { headers: behindProxy });
    expect(new URL(start.location!).searchParams.get("redirect_uri")).toBe(
      `https://${new URL(proxied.origin).host}/oauth/callback`,
    );
    expect(start.setCookies[0]!.attributes.secure).toBe(true);
    const authorize = await proxied.browser.open(start.location!);
    const back = new URL(authorize.location!);
    const done = await proxied.browser.open(`${back.pathname}${back.search}`, { headers: behindProxy });
    expect(done.status).toBe(302);
    expect(done.setCookies.find((c) => c.name === "nm_session")!.attributes.secure).toBe(true);
  });

  it.each(["//evil.com", "https://evil.com", "/\\evil.com", "/\\/evil.com", "javascript:alert(1)", ""])(
    "lands on /repos when next is %j",
    async (next) => {
      const w = await world();
      const { callback } = await signIn(w, next);
      expect(callback.status).toBe(302);
      expect(callback.location).toBe("/repos");
    },
  );

  // Each form resolves, once the URL parser has normalised it, to a path a browser reads as another host.
  it.each([
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2e//evil.example",
    "/a/.%2e//evil.example",
    "/%2e/\\evil.example",
    "/.\t//evil.example",
    "/.\n//evil.example",
    "/%2f/evil.example",
    "/%5c/evil.example",
    "/%5C%5Cevil.example",
  ])("answers %j, after sign-in and when already signed in, with a Location on this site", async (next) => {
    const w = await world();
    const sameSite = (location: string | undefined) => {
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(new URL(location!, `${w.origin}/oauth/callback`).origin).toBe(w.origin);
    };
    const { callback } = await signIn(w, next);
    expect(callback.status).toBe(302);
    sameSite(callback.location);
    const again = await w.browser.open(`/login?next=${encodeURIComponent(next)}`);
    expect(again.status).toBe(302);
    sameSite(again.location);
  });

  it("reads the repositories the person reaches through the App's installations, every page, cached for a minute", async () => {
    const many = Array.from({ length: 130 }, (_, i) => 10_000 + i);
    const bob = {
      login: "bob",
      id: 502,
      installations: [
        { id: 31, repositories: many },
        { id: 32, repositories: [7] },
      ],
    };
    const w = await world();
    await signIn(w, "/repos", bob);
    const user = (await w.auth.signedIn(pageRequest(cookieHeader(w))))!;
    expect(user).toMatchObject({ login: "bob", id: 502 });

    const before = w.standIn.requests.length;
    const ids = (await w.auth.readableRepositories(user))!;
    expect([...ids].sort((a, b) => a - b)).toEqual([7, ...many]);
    const asked = w.standIn.requests.slice(before);
    expect(asked.map((r) => r.path.split("?")[0])).toEqual([
      "/user/installations",
      "/user/installations/31/repositories",
      "/user/installations/31/repositories",
      "/user/installations/32/repositories",
    ]);
    const [token] = [...w.standIn.userTokens.keys()];
    expect(asked.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);

    const cachedCount = w.standIn.requests.length;
    ids.delete(7); // the caller's copy
    expect(await w.auth.readableRepositories(user)).toEqual(new Set([7, ...many]));
    expect(w.standIn.requests.length).toBe(cachedCount);

    w.clock.now += 61_000;
    await w.auth.readableRepositories(user);
    expect(w.standIn.requests.length).toBeGreaterThan(cachedCount);
  });

  it("ends the session when GitHub refuses the person's token (revoked): no answer but 'sign in again', signed out next time", async () => {
    const w = await world();
    await signIn(w);
    const req = () => pageRequest(cookieHeader(w));
    const user = (await w.auth.signedIn(req()))!;
    expect(await w.auth.readableRepositories(user)).toEqual(new Set([11, 12]));

    w.standIn.revokeUserTokens("alice");
    w.clock.now += 61_000;
    expect(await w.auth.readableRepositories(user)).toBeUndefined();
    expect(w.standIn.sent("GET", "/user/installations").at(-1)).toBeDefined();
    expect(await w.auth.signedIn(req())).toBeUndefined();
    expect(await rows()).toHaveLength(0);
    expect((await w.browser.open("/repos")).body).toBe("not signed in");
  });

  it("throws GitHub's classified error for an outage (the session stays)", async () => {
    const w = await world({ standIn: { failOnce: ["GET /user/installations"] } });
    await signIn(w);
    const user = (await w.auth.signedIn(pageRequest(cookieHeader(w))))!;
    await expect(w.auth.readableRepositories(user)).rejects.toMatchObject({ name: "GitHubError", kind: "server" });
    expect(await rows()).toHaveLength(1);
  });

  it("signs out: the row deleted, the cookie cleared, the old cookie no longer signs anyone in", async () => {
    const w = await world();
    await signIn(w);
    const oldCookie = cookieHeader(w);
    const out = await w.browser.open("/logout", { method: "POST" });
    expect(out.status).toBe(303);
    expect(out.location).toBe("/");
    expect(out.setCookies.find((c) => c.name === "nm_session")!.attributes).toMatchObject({
      "max-age": "0",
      path: "/",
    });
    expect(await rows()).toHaveLength(0);
    expect(await w.auth.signedIn(pageRequest(oldCookie))).toBeUndefined();
    expect((await w.browser.open("/logout")).status).toBe(405); // GET: a link cannot sign anyone out
  });

  it("lets a session end with its time: past 8 hours the cookie signs nobody in and the row goes", async () => {
    const w = await world();
    await signIn(w);
    expect((await w.browser.open("/repos")).status).toBe(200);
    w.clock.now += 8 * 3_600_000 + 1;
    expect((await w.browser.open("/repos")).body).toBe("not signed in");
    expect(await rows()).toHaveLength(0);
  });

  it("replaces a browser's earlier session when it signs in again", async () => {
    const w = await world();
    await signIn(w);
    const first = cookieHeader(w);
    // /login passes a signed-in browser straight on; here the sign-in is started by another tab's /login.
    w.standIn.signInAs(ALICE);
    const login = await new CookieBrowser(w.origin).open("/login");
    w.browser.cookies.set("nm_oauth_state", { value: login.setCookies[0]!.value, path: "/oauth/callback" });
    const authorize = await w.browser.open(login.location!);
    expect((await w.browser.open(authorize.location!)).status).toBe(302);
    expect(cookieHeader(w)).not.toEqual(first);
    expect(await rows()).toHaveLength(1);
    expect(await w.auth.signedIn(pageRequest(first))).toBeUndefined();
    expect(await w.auth.signedIn(pageRequest(cookieHeader(w)))).toMatchObject({ login: "alice" });
  });

  it("sends a signed-in person at /login straight on to next", async () => {
    const w = await world();
    await signIn(w);
    const again = await w.browser.open("/login?next=/runs/3");
    expect(again).toMatchObject({ status: 302, location: "/runs/3" });
  });

  it("spends GitHub's code only on a GET of the callback: a HEAD of it (a link checker, a prefetch) is refused and signs no one in", async () => {
    const w = await world();
    w.standIn.signInAs(ALICE);
    const login = await w.browser.open("/login");
    const authorize = await w.browser.open(login.location!);
    const back = new URL(authorize.location!);
    const head = await w.browser.open(`${back.pathname}${back.search}`, { method: "HEAD" });
    expect(head.status).toBe(405);
    expect(w.standIn.sent("POST", "/login/oauth/access_token")).toHaveLength(0);
    expect(await rows()).toHaveLength(0);
    // the same address, as the browser then GETs it: signed in with the unspent code
    expect((await w.browser.open(`${back.pathname}${back.search}`)).status).toBe(302);
    expect(await rows()).toHaveLength(1);
  });

  it("answers only its own paths", async () => {
    const w = await world();
    expect((await w.browser.open("/repos")).body).toBe("not signed in"); // routes() said false
    expect((await w.browser.open("/login", { method: "POST" })).status).toBe(405);
  });

  it("knows the operator by GitHub user id: the App's owner when a User, a WEB_ADMINS id, nobody else", async () => {
    let ownerReads = 0;
    const w = await world({
      config: { web: { oauth: OAUTH_CLIENT, admins: [601] } },
      appOwner: async () => {
        ownerReads++;
        return { login: "Alice", id: 501, type: "User" };
      },
    });
    const person = (login: string, id: number) => ({ sessionId: "s", id, login });
    expect(await w.auth.isOperator(person("alice", 501))).toBe(true);
    expect(await w.auth.isOperator(person("carol", 601))).toBe(true);
    expect(await w.auth.isOperator(person("carol-renamed", 601))).toBe(true); // a rename keeps the id
    expect(await w.auth.isOperator(person("mallory", 666))).toBe(false);
    // Someone who took a login the owner gave up is another account: the same login, another id.
    expect(await w.auth.isOperator(person("alice", 666))).toBe(false);
    expect(await w.auth.isOperator(person("Alice", 667))).toBe(false);
    expect(ownerReads).toBe(1); // asked once, then remembered

    const org = await world({ appOwner: async () => ({ login: "octo-org", id: 9000, type: "Organization" }) });
    expect(await org.auth.isOperator(person("octo-org", 9000))).toBe(false);
    expect(await org.auth.isOperator(person("alice", 501))).toBe(false);

    const failing = await world({
      appOwner: async () => {
        throw new Error("GitHub is down");
      },
    });
    expect(await failing.auth.isOperator(person("alice", 501))).toBe(false);
    expect(failing.logs.lines().some((l) => l.msg === "web: could not read the App's owner")).toBe(true);
  });

  it("signs in a person who took a WEB_ADMINS person's old login as themselves: not an operator", async () => {
    const w = await world({ config: { web: { oauth: OAUTH_CLIENT, admins: [601] } } });
    await signIn(w, "/operator", { login: "carol", id: 666, repositories: [11] });
    const impostor = (await w.auth.signedIn(pageRequest(cookieHeader(w))))!;
    expect(impostor).toMatchObject({ login: "carol", id: 666 });
    expect(await w.auth.isOperator(impostor)).toBe(false);

    const carol = { ...w, browser: new CookieBrowser(w.origin) };
    await signIn(carol, "/operator", { login: "carol-renamed", id: 601, repositories: [11] });
    const renamed = (await w.auth.signedIn(pageRequest(cookieHeader(carol))))!;
    expect(renamed).toMatchObject({ login: "carol-renamed", id: 601 });
    expect(await w.auth.isOperator(renamed)).toBe(true);
  });

  it("reads the App's owner with GET /app as the App (its JWT) when given the App's credentials", async () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
    const w = await world({
      config: { app: { appId: 1, privateKey: pem } },
      standIn: { appOwner: { login: "alice", id: 501, type: "User" } },
    });
    expect(await w.auth.isOperator({ sessionId: "s", id: 501, login: "alice" })).toBe(true);
    expect(await w.auth.isOperator({ sessionId: "s", id: 666, login: "alice" })).toBe(false);
    const [asked] = w.standIn.sent("GET", /\/app$/);
    expect(asked!.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/); // the App's JWT, not a person's token
    expect(w.logs.text()).not.toContain(pem.split("\n")[1]!);
  });

  it("says how to turn sign-in on when no OAuth client is configured", async () => {
    const w = await world({ config: { web: { admins: [] } } });
    expect(w.auth.enabled).toBe(false);
    const page = await w.browser.open("/login");
    expect(page.status).toBe(503);
    expect(page.body).toContain("GITHUB_CLIENT_ID");
    expect(page.body).toContain("GITHUB_CLIENT_SECRET");
    expect(page.body).toContain(`${w.origin}/oauth/callback`);
    expect(w.standIn.requests).toHaveLength(0);
  });

  it("signs in against GitHub Enterprise over real HTTP (the relay), as an app process and a browser would", async () => {
    const target = `http://github-auth-${kind}.relay.test`;
    const relay = await startGitHubHttpRelay(target);
    closers.push(() => relay.close());
    const w = await world({
      config: {
        github: {
          webOrigin: `http://${relay.host}`,
          host: relay.host,
          protocol: "http",
          baseUrl: `http://${relay.host}/api/v3`,
          gitHosts: [relay.host],
        },
      },
      standIn: { apiUrl: `${target}/api/v3` },
    });
    const { login, callback } = await signIn(w);
    expect(new URL(login.location!).origin).toBe(`http://${relay.host}`);
    expect(callback).toMatchObject({ status: 302, location: "/repos" });
    const user = (await w.auth.signedIn(pageRequest(cookieHeader(w))))!;
    expect(await w.auth.readableRepositories(user)).toEqual(new Set([11, 12]));
    expect(relay.failures).toEqual([]);
    expect(w.standIn.sent("GET", /^\/api\/v3\/user\/installations\?/)).toHaveLength(1);
    expect(w.standIn.sent("GET", /^\/api\/v3\/user\/installations\/31\/repositories/)).toHaveLength(1);
  });
});

/** What signedIn reads of a page's request (its headers), for calls made outside the test server. */
function pageRequest(headers: Record<string, string>): IncomingMessage {
  return { headers, socket: {} } as unknown as IncomingMessage;
}

/** The Cookie header the browser would send to the app's pages. */
function cookieHeader(w: World): Record<string, string> {
  const session = w.browser.cookies.get("nm_session");
  return session ? { cookie: `nm_session=${session.value}` } : {};
}
