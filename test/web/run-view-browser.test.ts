import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { EnvConfig } from "../../src/config/env/env-config.js";
import { insertExecution } from "../../src/db/executions.js";
import { findings, runs, turns } from "../../src/db/schema.js";
import { createWebAuth } from "../../src/web/auth/web-auth.js";
import { createWebHandler } from "../../src/web/create-web-handler.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { FlowFixture, numbered, OWNER, REPO, REPO_ID } from "../helpers/flow-fixture.js";
import { startGitHubHttpRelay, type GitHubHttpRelay } from "../helpers/github-http-relay.js";
import { OAUTH_CLIENT, type OAuthPerson } from "../helpers/github-stand-in.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * The run view in a real browser: Debian's Chromium, driven by playwright-core, signs in through the GitHub
 * stand-in's OAuth flow (its authorize page reached over real HTTP through the relay) and walks the pages
 * of a run the app really made here — a review, a thread ruling, a fix with its verification and the
 * re-review. A person who cannot read the repository gets 404s; hostile titles and bodies stay text.
 * Screenshots of each page are kept in test-artifacts/run-view/.
 */

let fx: FlowFixture;
// The web server, the relay and Chromium are on 127.0.0.1: the app's own requests to them pass nock.
const database = useFlowDatabase(() => undefined, { allowHost: "127.0.0.1" });

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/run-view/", import.meta.url));

const WRITER = { login: "maintainer" };
const MAINTAINER: OAuthPerson = { login: "maintainer", id: 7001, repositories: [REPO_ID] };
const OUTSIDER: OAuthPerson = { login: "outsider", id: 7002, repositories: [] };

const HOSTILE_TITLE = `Widget <script>window.pwned = 1</script> "change" <img src=x onerror="window.pwned=2">`;
const HOSTILE_BODY = `Rename it.\n</pre><script>window.pwned = 3</script><a href="javascript:window.pwned=4">click</a> @octo-org/everyone`;
const FIXED_APP = numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i < n; i++)", 12: "changed 12" });

let argued: { id: number };
let relay: GitHubHttpRelay;
let web: Server;
let origin: string;
let browser: Browser;
const logs = captureLogger();

beforeAll(async () => {
  // The app's run: review (NM-1 error, NM-2 info with a hostile title and body), a writer's argument in
  // NM-2's thread (withdrawn), `/no-mistakes fix` for NM-1 (pushed, confirmed by the verifier), the re-review.
  fx = await FlowFixture.start(database.handle, { permissions: { maintainer: "write", Codertocat: "read" } });
  fx.pull.title = HOSTILE_TITLE;
  // GitHub's updated_at of the PR, as a push now would set it (the scorecard's push-to-review starts there)
  fx.pull.updatedAt = new Date().toISOString();
  await fx.openReviewed({
    role: "reviewer",
    costUsd: 0.0421,
    answer: {
      summary: "One bug, one nit.",
      findings: [
        {
          path: "src/app.ts",
          line: 11,
          severity: "error",
          action: "auto-fix",
          title: "Off-by-one in loop bound",
          body: "`<=` reads past the end.",
          suggestion: "for (i = 0; i < n; i++)",
        },
        {
          path: "src/app.ts",
          line: 12,
          severity: "info",
          action: "no-op",
          title: `<img src=x onerror="window.pwned=5"> naming`,
          body: HOSTILE_BODY,
        },
      ],
      resolved: [],
    },
  });
  fx.app.scenario([
    {
      role: "reviewer",
      match: "NM-2",
      answer: { ruling: "withdrawn", reason: "The name follows the module's convention.", reply: "Agreed." },
    },
  ]);
  argued = await fx.replyInThread(WRITER, fx.findingComment("NM-2").id, "This name is the module's convention.");
  fx.app.scenario([
    {
      role: "fixer",
      costUsd: 0.0187,
      edits: [{ path: "src/app.ts", content: FIXED_APP }],
      answer: { summary: "Used < for the bound.", fixed: ["NM-1"] },
    },
    { role: "verifier", answer: { verdicts: [{ id: "NM-1", fixed: true, reason: "The bound is now `<`." }] } },
  ]);
  await fx.comment("/no-mistakes fix", WRITER);
  const headSha = fx.remote.remoteSha("refs/heads/feature");
  fx.app.scenario([{ role: "reviewer", answer: { summary: "Fix verified.", findings: [], resolved: [] } }]);
  await fx.pullRequest("synchronize", headSha, { sender: { login: "no-mistakes[bot]", type: "Bot" } });
  // Someone who may only read the repository asks for a fix: refused, and kept for the operator page.
  await fx.comment("/no-mistakes fix", { login: "Codertocat" });

  // The run view, as start-server wires it, on the app's database; GitHub's web host (the stand-in's
  // https://github.com) reached by the browser through the relay.
  relay = await startGitHubHttpRelay("https://github.com");
  const config: Pick<EnvConfig, "web" | "github" | "publicUrl"> = {
    web: { oauth: OAUTH_CLIENT, admins: [MAINTAINER.id] },
    github: { webOrigin: `http://${relay.host}`, host: "github.com", protocol: "https", gitHosts: ["github.com"] },
    publicUrl: undefined,
  };
  const auth = createWebAuth({ database: database.handle.db, config, log: logs.log });
  const handler = createWebHandler({
    db: database.handle.db,
    auth,
    webOrigin: config.github.webOrigin,
    log: logs.log,
    secrets: [OAUTH_CLIENT.clientSecret],
  });
  web = createServer((req, res) => {
    void handler(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end("not the run view");
    });
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As root in a container, with this machine's closed network: no sandbox, no background connections.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (web ? web.close(() => resolve()) : resolve()));
  await relay?.close();
  await fx?.stop();
});

/** A new browser (own cookies) signed in as `person` through GitHub's OAuth flow, left on `path`. */
async function signedIn(person: OAuthPerson, path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on("dialog", (dialog) => {
    throw new Error(`a page opened a dialog: ${dialog.message()}`);
  });
  fx.github.signInAs(person);
  await page.goto(`${origin}${path}`);
  await page.waitForURL((url) => url.origin === origin && url.pathname === path.split("?")[0]);
  return { context, page };
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Texts of a table's rows (cells joined by " | "), the header row left out. */
async function rows(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(`${selector} tbody tr`, (trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").replace(/\s+/g, " ").trim()).join(" | "),
    ),
  );
}

describe("the run view in Chromium", () => {
  it("asks for sign-in, signs a maintainer in through GitHub, and walks to the run from the repository list", async () => {
    const before = fx.github.sent("POST", "/login/oauth/access_token").length;
    const { context, page } = await signedIn(MAINTAINER, "/repos");
    // one code exchange, through GitHub's web host; the session is a cookie the page's script cannot read
    expect(fx.github.sent("POST", "/login/oauth/access_token")).toHaveLength(before + 1);
    const cookies = await context.cookies(origin);
    expect(cookies.find((c) => c.name === "nm_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe(
      "",
    );

    await expect.poll(() => page.textContent("body")).toContain(`${OWNER}/${REPO}`);
    await screenshot(page, "repositories");
    await page.click(`a[href="/repos/${OWNER}/${REPO}"]`);
    await page.waitForURL(`${origin}/repos/${OWNER}/${REPO}`);
    const prs = await rows(page, "table.pull-requests");
    expect(prs).toHaveLength(1);
    expect(prs[0]).toContain(`#${fx.pr}`);
    await screenshot(page, "repository");

    await page.click(`a[href="/repos/${OWNER}/${REPO}/pull/${fx.pr}"]`);
    await page.waitForURL(`${origin}/repos/${OWNER}/${REPO}/pull/${fx.pr}`);
    const body = (await page.textContent("body"))!;
    // every turn, in order, with its session mode
    const turns = await fx.turns();
    expect(turns.map((t) => [t.role, t.sessionMode])).toEqual([
      ["reviewer", "started"],
      ["reviewer", "resumed"],
      ["fixer", "started"],
      ["verifier", "started"],
      ["reviewer", "resumed"],
    ]);
    const timeline = (await rows(page, "#turns table")).map((r) => r.toLowerCase());
    expect(timeline).toHaveLength(turns.length);
    turns.forEach((turn, i) => {
      expect(timeline[i]).toContain(turn.role);
      expect(timeline[i]).toContain(turn.trigger);
      expect(timeline[i]).toContain(turn.sessionMode!);
      expect(timeline[i]).toContain(turn.headSha.slice(0, 7));
      expect(timeline[i]).toContain(turn.tokensIn.toLocaleString("en-US"));
      expect(timeline[i]).toMatch(/\| \d+(\.\d+)? ?(ms|s)\b/); // how long it took
      expect(timeline[i]).toContain(turn.status);
    });
    // what the turns cost: each row's, and the run's total
    expect(timeline[0]).toContain("$0.0421");
    expect(timeline[2]).toContain("$0.0187");
    expect(body).toContain("$0.0608");
    // each finding's history, and where it stands
    const nm1 = (await page.textContent("#NM-1"))!.replace(/\s+/g, " ");
    expect(nm1).toContain("Off-by-one in loop bound");
    expect(nm1).toMatch(/fixed/);
    expect(nm1).toMatch(/raised[\s\S]*posted[\s\S]*fix-pushed[\s\S]*confirmed/);
    const nm2 = (await page.textContent("#NM-2"))!.replace(/\s+/g, " ");
    expect(nm2).toMatch(/withdrawn/);
    expect(nm2).toContain("maintainer");
    expect(nm2).toContain("The name follows the module's convention.");
    // links to GitHub: the PR, its summary, NM-1's inline comment and the fix's commit in its history, and for
    // NM-2 the writer's argument and the bot's ruling in the thread
    const pull = `http://${relay.host}/${OWNER}/${REPO}/pull/${fx.pr}`;
    const hrefs = (selector: string) => page.$$eval(selector, (as) => as.map((a) => a.getAttribute("href")!));
    const links = await hrefs("a[href]");
    expect(links).toContain(pull);
    const summary = fx.github.issueComments.find((c) => c.body.startsWith("<!-- no-mistakes:summary -->"))!;
    expect(links).toContain(`${pull}#issuecomment-${summary.id}`);
    const nm1Comment = `${pull}#discussion_r${fx.findingComment("NM-1").id}`;
    const pushed = (await fx.turns()).find((t) => t.role === "verifier")!.headSha;
    expect(await hrefs("#NM-1 .event a[rel]")).toEqual([nm1Comment, `${pull}/commits/${pushed}`]);
    const rulingReply = fx.github.reviewComments.find(
      (c) => c.in_reply_to_id === fx.findingComment("NM-2").id && c.id !== argued.id,
    )!;
    expect(await hrefs("#NM-2 .facts a[rel]")).toEqual([
      `${pull}#discussion_r${rulingReply.id}`,
      `${pull}#discussion_r${fx.findingComment("NM-2").id}`,
    ]);
    expect(await hrefs("#NM-2 .event a[rel]")).toEqual([
      `${pull}#discussion_r${fx.findingComment("NM-2").id}`,
      `${pull}#discussion_r${argued.id}`,
    ]);
    expect(body).toContain("/no-mistakes fix".replace("/no-mistakes ", "")); // the command is listed
    await page.click("#NM-1 summary"); // the fixed finding's history, open in the screenshot
    await screenshot(page, "run");
    // the breadcrumbs lead back: to the repository, then to the list of repositories
    await page.click(`nav.breadcrumbs a[href="/repos/${OWNER}/${REPO}"]`);
    await page.waitForURL(`${origin}/repos/${OWNER}/${REPO}`);
    await page.click("nav.breadcrumbs >> text=Repositories");
    await page.waitForURL(`${origin}/repos`);
    expect(await page.textContent("h1")).toMatch(/Repositories/);
    await context.close();
  });

  it("renders the PR's hostile title and a finding's hostile body as text: no script runs, no element is made", async () => {
    const { context, page } = await signedIn(MAINTAINER, `/repos/${OWNER}/${REPO}/pull/${fx.pr}`);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.$$("script")).toHaveLength(0);
    expect(await page.$$("img")).toHaveLength(0);
    expect(await page.$$('a[href^="javascript:"]')).toHaveLength(0);
    // as on GitHub: the text reads the same, with a zero-width non-joiner after each `<` that could open a tag
    const text = (await page.textContent("body"))!.replace(/\u200c/g, "");
    expect(text).toContain("<script>window.pwned = 1</script>");
    expect(text).toContain(`<a href="javascript:window.pwned=4">click</a>`);
    // the CSP on the answer forbids any script a page could still carry
    const answer = await page.request.get(`${origin}/repos/${OWNER}/${REPO}/pull/${fx.pr}`);
    expect(answer.headers()["content-security-policy"]).toContain("default-src 'none'");
    await context.close();
  });

  it("shows a finding's reproducer run and what a turn ran, the output folded and inert", async () => {
    // As the checks room records them (src/pipeline/checks/record-execution.ts): the review's setup, and NM-1's
    // reproducer with the PR author's output (terminal colours, markup) on the reviewed head.
    const db = database.handle.db;
    const [run] = await db
      .select()
      .from(runs)
      .where(and(eq(runs.repositoryId, REPO_ID), eq(runs.prNumber, fx.pr)));
    const [nm1] = await db
      .select()
      .from(findings)
      .where(and(eq(findings.runId, run!.id), eq(findings.number, 1)));
    const [review] = await db.select().from(turns).where(eq(turns.runId, run!.id)).orderBy(turns.id).limit(1);
    const row = { runId: run!.id, turnId: review!.id, headSha: run!.headSha, phase: "review", exitCode: 0 };
    const common = { outputDigest: "0".repeat(64), findingId: null, cached: true, durationMs: 0, outputTail: "" };
    await insertExecution(db, {
      ...common,
      ...row,
      kind: "setup",
      name: "setup",
      command: "npm ci",
      outcome: "passed",
    });
    await insertExecution(db, {
      ...common,
      ...row,
      findingId: nm1!.id,
      kind: "reproducer",
      name: "node --test repro/bound.test.js",
      command: "node --test repro/bound.test.js",
      outcome: "reproduced",
      exitCode: 1,
      durationMs: 1234,
      cached: false,
      outputTail: `\u001b[31mnot ok 1 - bound\u001b[0m\n<script>window.pwned = 6</script><img src=x onerror="window.pwned=7">`,
    });
    const { context, page } = await signedIn(MAINTAINER, `/repos/${OWNER}/${REPO}/pull/${fx.pr}`);
    await page.click("#NM-1 > summary");
    const run1 = (await page.textContent("#NM-1 ol.executions li"))!.replace(/\s+/g, " ");
    expect(run1).toContain("reproduced reproducer review on");
    expect(run1).toContain("exit 1 · 1 s");
    expect(run1).toContain("node --test repro/bound.test.js");
    expect(await page.isVisible("#NM-1 pre.output")).toBe(false);
    await page.click("#NM-1 details.output > summary");
    const output = (await page.textContent("#NM-1 pre.output"))!.replace(/\u200c/g, "");
    expect(output).toBe(`not ok 1 - bound\n<script>window.pwned = 6</script><img src=x onerror="window.pwned=7">`);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.$$("script")).toHaveLength(0);
    expect(await page.$$("img")).toHaveLength(0);
    const turnRow = (await rows(page, "table.turns"))[0]!;
    expect(turnRow).toContain("1 s (2 runs)");
    const ran = (await page.textContent(`#executions-turn-${review!.id}`))!.replace(/\s+/g, " ");
    expect(ran).toContain("passed setup review on");
    expect(ran).toContain("from the cache");
    expect(ran).toContain("reproduced reproducer of NM-1 review · exit 1 · 1 s");
    await screenshot(page, "run-executions");
    await context.close();
  });

  it("shows the repository's scorecard with its weekly charts, under the CSP, light and dark, at 375 px wide", async () => {
    const violations: string[] = [];
    const shots: [string, number, "light" | "dark"][] = [
      ["scorecard", 1280, "light"],
      ["scorecard-dark", 1280, "dark"],
      ["scorecard-375", 375, "light"],
    ];
    const fills: string[] = [];
    for (const [name, width, colorScheme] of shots) {
      const { context, page } = await signedIn(MAINTAINER, `/repos/${OWNER}/${REPO}`);
      page.on("console", (m) => {
        if (/content security policy/i.test(m.text())) violations.push(m.text());
      });
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme });
      await page.reload();
      const card = page.locator("section.scorecard");
      // this run: NM-1 fixed (pushed by the fixer, confirmed), NM-2 withdrawn on a writer's argument
      expect((await card.locator("dd.addressed").textContent())!.trim()).toBe("50% (1 fixed)");
      expect((await card.locator("dd.noise").textContent())!.replace(/\s+/g, " ").trim()).toBe(
        "50% (0 dismissed, 1 withdrawn)",
      );
      expect(await card.locator("svg.chart").count()).toBe(2);
      const box = (await card.locator("svg.chart").first().boundingBox())!;
      expect(box.width).toBeGreaterThan(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // the page itself never scrolls sideways (wide tables scroll in their own box)
      const scrollWidth = () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
          .scrollWidth;
      expect(await page.evaluate(scrollWidth)).toBeLessThanOrEqual(width);
      const fillOf = (e: unknown) =>
        (globalThis as unknown as { getComputedStyle: (e: unknown) => { fill: string } }).getComputedStyle(e).fill;
      fills.push(await card.locator("svg.chart .axis").first().evaluate(fillOf));
      await card.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
      await context.close();
    }
    expect(violations).toEqual([]);
    // the axis text follows the colour scheme
    expect(fills[0]).not.toBe(fills[1]);
  });

  it("shows the operator page to an admin: queues, workers, failed jobs and refusals", async () => {
    const { context, page } = await signedIn(MAINTAINER, "/operator");
    const text = (await page.textContent("body"))!;
    expect(text).toMatch(/queue/i);
    expect(text).toMatch(/worker/i);
    // the read-only person's `/no-mistakes fix`, refused in this run
    const refused = await rows(page, "table.refusals");
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain("Codertocat");
    expect(refused[0]).toContain(`${OWNER}/${REPO}#${fx.pr}`);
    await screenshot(page, "operator");
    await context.close();
  });

  it("someone who cannot read the repository sees none of it: 404 for its pages, nothing in their list", async () => {
    const { context, page } = await signedIn(OUTSIDER, "/repos");
    expect(await page.textContent("body")).not.toContain(`${OWNER}/${REPO}`);
    for (const path of [
      `/repos/${OWNER}/${REPO}`,
      `/repos/${OWNER}/${REPO}/pull/${fx.pr}`,
      "/operator",
      `/repos/${OWNER}/nope`,
    ]) {
      const answer = await page.goto(`${origin}${path}`);
      expect(answer?.status(), path).toBe(404);
      expect(await page.textContent("body")).not.toContain(REPO);
    }
    await screenshot(page, "not-found");
    await context.close();
  });

  it("asks a browser with no session to sign in before it shows anything", async () => {
    const context = await browser.newContext();
    const answer = await context.request.get(`${origin}/repos/${OWNER}/${REPO}/pull/${fx.pr}`, { maxRedirects: 0 });
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe(
      `/login?next=${encodeURIComponent(`/repos/${OWNER}/${REPO}/pull/${fx.pr}`)}`,
    );
    expect(await answer.text()).toBe("");
    await context.close();
  });

  it("never puts a token in a page, a cookie or the log", async () => {
    const tokens = [...fx.github.userTokens.keys()];
    expect(tokens.length).toBeGreaterThan(0);
    const { context, page } = await signedIn(MAINTAINER, `/repos/${OWNER}/${REPO}/pull/${fx.pr}`);
    const html = await page.content();
    const cookies = JSON.stringify(await context.cookies());
    for (const token of [...fx.github.userTokens.keys()]) {
      expect(html).not.toContain(token);
      expect(cookies).not.toContain(token);
      expect(logs.text()).not.toContain(token);
    }
    expect(logs.text()).not.toContain(OAUTH_CLIENT.clientSecret);
    await context.close();
  });
});
