import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import nock from "nock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EnvConfig } from "../../src/config/env/env-config.js";
import { webSessions } from "../../src/db/schema.js";
import { createWebAuth } from "../../src/web/auth/web-auth.js";
import { createWebHandler } from "../../src/web/create-web-handler.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { GitHubStandIn, OAUTH_CLIENT, type StandInFailure } from "../helpers/github-stand-in.js";
import { seedFindings, seedRuns, seedTurns } from "../helpers/run-view-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";
import { CookieBrowser } from "./auth/cookie-browser.js";

/**
 * The run view's router over real HTTP, with the real sign-in against the GitHub stand-in: what a person
 * gets for each kind of request — not signed in, signed in without access, a wrong method, GitHub away,
 * sign-in not configured — and that every answer carries the security headers.
 */

const kinds = await databaseKinds();
const INSTALLATION_ID = 31;
const GITHUB: EnvConfig["github"] = {
  webOrigin: "https://github.com",
  host: "github.com",
  protocol: "https",
  gitHosts: ["github.com"],
};
const MINE = { repositoryId: 11, fullName: "octo-org/widgets" };
const THEIRS = { repositoryId: 12, fullName: "octo-org/secret" };

describe.each(kinds)("the run view's router (%s)", (kind) => {
  let database: TestDatabase;
  const servers: Server[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith("127.0.0.1:"));
    await seedRuns(database.handle.db, [
      { ...MINE, prNumber: 1, title: "Mine" },
      { ...THEIRS, prNumber: 1, title: "Secret plans" },
    ]);
  });
  afterEach(async () => {
    nock.cleanAll();
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await database.handle.db.delete(webSessions);
  });
  afterAll(async () => {
    nock.enableNetConnect();
    await database.dispose();
  });

  /** The router as start-server mounts it, in a server whose other paths answer 418 (the next handler). */
  async function serve(options: { oauth?: boolean; failOnce?: StandInFailure[]; admins?: number[] } = {}) {
    const standIn = new GitHubStandIn({
      owner: "octo-org",
      repo: "widgets",
      installationId: INSTALLATION_ID,
      bareRepo: "/nonexistent",
      baseRef: "main",
      ...(options.failOnce ? { failOnce: options.failOnce } : {}),
    });
    standIn.install();
    const logs = captureLogger();
    const config = {
      web: { oauth: options.oauth === false ? undefined : OAUTH_CLIENT, admins: options.admins ?? [] },
      github: GITHUB,
    };
    const clock = { now: Date.now() };
    const auth = createWebAuth({ database: database.handle.db, config, log: logs.log, now: () => clock.now });
    const handler = createWebHandler({
      db: database.handle.db,
      auth,
      webOrigin: GITHUB.webOrigin,
      log: logs.log,
      secrets: [OAUTH_CLIENT.clientSecret],
    });
    const server = createServer((req, res) => {
      void handler(req, res).then((handled) => {
        if (!handled) res.writeHead(418).end("next handler");
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { standIn, origin, browser: new CookieBrowser(origin), logs, clock };
  }

  /** Signs alice in (she reads repository 11 only) through the stand-in's OAuth flow. */
  async function signIn(w: Awaited<ReturnType<typeof serve>>): Promise<void> {
    w.standIn.signInAs({ login: "alice", id: 501, repositories: [MINE.repositoryId] });
    const login = await w.browser.open("/login");
    const authorize = await w.browser.open(login.location!);
    const callback = await w.browser.open(authorize.location!);
    expect(callback.status).toBe(302);
  }

  it("leaves other paths to the next handler, and sends a browser without a session to sign in first", async () => {
    const w = await serve();
    expect((await fetch(`${w.origin}/health`)).status).toBe(418);
    const answer = await fetch(`${w.origin}/repos/octo-org/widgets?state=all`, { redirect: "manual" });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe(
      `/login?next=${encodeURIComponent("/repos/octo-org/widgets?state=all")}`,
    );
    expect(await answer.text()).toBe("");
    expect(w.standIn.sent("GET", "/user")).toHaveLength(0);
  });

  it("puts the security headers on every answer: pages, redirects, sign-in's own pages and the stylesheet", async () => {
    const w = await serve();
    await signIn(w);
    const cookie = `nm_session=${w.browser.cookies.get("nm_session")!.value}`;
    for (const [path, status] of [
      ["/repos", 200],
      ["/repos/octo-org/widgets/pull/1", 200],
      ["/repos/octo-org/secret", 404],
      ["/login", 302],
      ["/oauth/callback?code=x&state=y", 400],
      ["/assets/run-view.css", 200],
    ] as const) {
      const answer = await fetch(`${w.origin}${path}`, { headers: { cookie }, redirect: "manual" });
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get("content-security-policy"), path).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(answer.headers.get("x-frame-options"), path).toBe("DENY");
      expect(answer.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    const css = await fetch(`${w.origin}/assets/run-view.css`);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toContain("{");
  });

  it("answers the same 404 for a repository the person cannot read and one that does not exist", async () => {
    const w = await serve();
    await signIn(w);
    const pages = await Promise.all(
      [
        "/repos/octo-org/secret",
        "/repos/octo-org/secret/pull/1",
        "/repos/octo-org/nope",
        "/repos/a/b/c/d",
        "/operator",
      ].map((path) => w.browser.open(path)),
    );
    expect(pages.map((p) => p.status)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(pages.map((p) => p.body)).size).toBe(1);
    expect(pages[0]!.body).not.toContain("Secret plans");
    const mine = await w.browser.open("/repos/octo-org/widgets/pull/1");
    expect(mine.status).toBe(200);
    expect(mine.body).toContain("Mine");
    const list = await w.browser.open("/repos");
    expect(list.body).toContain("octo-org/widgets");
    expect(list.body).not.toContain("octo-org/secret");
  });

  it("shows a repository's scorecard to who can read it; another repository's figures only to the operator", async () => {
    const db = database.handle.db;
    const [mine, theirs] = await seedRuns(db, [
      { ...MINE, prNumber: 2, title: "Scored" },
      { ...THEIRS, prNumber: 2, title: "Scored secretly" },
    ]);
    const now = new Date();
    const [mineTurn] = await seedTurns(db, mine!, [{ startedAt: now, agent: "claude-code", model: "mine-model" }]);
    const [theirTurn] = await seedTurns(db, theirs!, [{ startedAt: now, agent: "codex", model: "secret-model" }]);
    await seedFindings(db, mine!, [
      { number: 1, introducedTurnId: mineTurn, status: "fixed", outcome: "fixed", outcomeAt: now },
      { number: 2, introducedTurnId: mineTurn, status: "open" },
      { number: 3, introducedTurnId: mineTurn, status: "dismissed", outcome: "dismissed", outcomeAt: now },
    ]);
    await seedFindings(db, theirs!, [{ number: 1, introducedTurnId: theirTurn, status: "fixed", outcome: "fixed" }]);

    const w = await serve({ admins: [601] });
    await signIn(w);
    const page = await w.browser.open("/repos/octo-org/widgets");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Scorecard");
    expect(page.body).toContain("mine-model");
    expect(page.body).toMatch(/<dd class="addressed">33% \(1 fixed\)<\/dd>/);
    expect(page.body).toContain("<svg");
    expect(page.body).not.toContain("secret-model");
    for (const path of ["/repos/octo-org/secret", "/operator"]) {
      const refused = await w.browser.open(path);
      expect(refused.status).toBe(404);
      expect(refused.body).not.toContain("secret-model");
      expect(refused.body).not.toContain("Scorecard");
    }

    // carol, an operator (WEB_ADMINS), reads no repository of her own
    w.standIn.signInAs({ login: "carol", id: 601, repositories: [] });
    const carol = new CookieBrowser(w.origin);
    const login = await carol.open("/login");
    expect((await carol.open((await carol.open(login.location!)).location!)).status).toBe(302);
    const operatorPage = await carol.open("/operator");
    expect(operatorPage.status).toBe(200);
    expect(operatorPage.body).toContain("secret-model");
    expect(operatorPage.body).toContain("mine-model");
    expect(operatorPage.body).toContain("octo-org/secret");
  });

  it("refuses a method other than GET with 405, naming what it answers", async () => {
    const w = await serve();
    await signIn(w);
    const answer = await fetch(`${w.origin}/repos/octo-org/widgets`, {
      method: "POST",
      headers: { cookie: `nm_session=${w.browser.cookies.get("nm_session")!.value}` },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD");
    expect(await answer.text()).toContain("Only GET is answered here.");
  });

  it("says GitHub did not answer (502) when the access check fails, keeps the session, and shows the page once GitHub is back", async () => {
    const w = await serve({ failOnce: ["GET /user/installations"] });
    await signIn(w);
    const failed = await w.browser.open("/repos/octo-org/widgets");
    expect(failed.status).toBe(502);
    expect(failed.body).toContain("GitHub did not answer who may read this repository");
    expect(w.logs.lines().some((l) => l.msg === "run view page failed" && l.level === 40)).toBe(true);
    const again = await w.browser.open("/repos/octo-org/widgets");
    expect(again.status).toBe(200);
    expect(again.body).toContain("Mine");
  });

  it("sends a person whose token GitHub now refuses (the App's authorization revoked) to sign in again, not to an empty page", async () => {
    const w = await serve();
    await signIn(w);
    expect((await w.browser.open("/repos/octo-org/widgets")).status).toBe(200);
    w.standIn.revokeUserTokens("alice");
    w.clock.now += 61_000; // past the cached answer
    const answer = await w.browser.open("/repos/octo-org/widgets?state=open");
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/login?next=${encodeURIComponent("/repos/octo-org/widgets?state=open")}`);
    expect(answer.body).not.toContain("Mine");
    // and the session is gone: the next page asks for sign-in before anything else
    expect((await w.browser.open("/repos")).status).toBe(303);
  });

  it("without GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET: every page says how to turn sign-in on, and shows nothing", async () => {
    const w = await serve({ oauth: false });
    for (const path of ["/repos", "/repos/octo-org/widgets/pull/1", "/operator"]) {
      const page = await w.browser.open(path);
      expect(page.status, path).toBe(503);
      expect(page.body).toContain("GITHUB_CLIENT_ID");
      expect(page.body).toContain("GITHUB_CLIENT_SECRET");
      expect(page.body).not.toContain("Mine");
    }
    const login = await w.browser.open("/login");
    expect(login.status).toBe(503);
    expect(login.body).toContain("/oauth/callback");
  });
});
