import { readFileSync } from "node:fs";
import { join } from "node:path";
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodeBasicAuth } from "../../src/git/encode-basic-auth.js";
import { startGitHttpServer, type GitHttpServer } from "../git/git-http-server.js";
import type { AppHarness } from "../helpers/app-harness.js";
import { filesUnder, FlowFixture, LOOP_AUTO_FIX, LOOP_BUG_APP, OWNER, REPO } from "../helpers/flow-fixture.js";
import { INSTALLATION_TOKEN } from "../helpers/github-stand-in.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * The app on GitHub Enterprise Server over plain http: the API at http://ghe.example.test/api/v3
 * (nock), the repository served by a real git smart-HTTP server on 127.0.0.1 that demands the
 * installation token as Basic auth, as GHE does. git runs in a child process, so nock never sees
 * its traffic; nothing in this process may reach the network.
 */

const GHE_HOST = "ghe.example.test";
const API_ROOT = `http://${GHE_HOST}/api/v3`;
const INSTALLATION_ID = 99;
const OTHER_TOKEN = "ghs_SomeOtherInstallationToken9876543210zyx";
const TOKEN_BASIC = encodeBasicAuth(INSTALLATION_TOKEN);

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);
/** Every in-process HTTP request nock had no interceptor for (e.g. one to api.github.com). */
const unmatched: string[] = [];
const onNoMatch = (req: { href?: string; method?: string; hostname?: string; path?: string }) => {
  unmatched.push(`${req.method ?? "?"} ${req.href ?? `${req.hostname ?? "?"}${req.path ?? ""}`}`);
};

beforeAll(() => {
  nock.emitter.on("no match", onNoMatch);
});
afterAll(() => {
  nock.emitter.removeListener("no match", onNoMatch);
});

describe("GitHub Enterprise Server over http", () => {
  let gitServer: GitHttpServer | undefined;

  beforeEach(() => {
    unmatched.length = 0;
    fx = FlowFixture.withoutApp({ installationId: INSTALLATION_ID, apiUrl: API_ROOT });
  });
  afterEach(async () => {
    await gitServer?.close();
    gitServer = undefined;
  });

  /** Serves the fixture's root (so `origin.git` is its bare repository) over http, requiring `token`; starts the app. */
  async function start(requiredToken: string): Promise<{ app: AppHarness; server: GitHttpServer }> {
    gitServer = await startGitHttpServer(fx.root, { token: requiredToken });
    const app = await fx.startApp(database.handle, {
      env: { GHE_HOST, GHE_PROTOCOL: "http", GIT_TRUSTED_HOSTS: "127.0.0.1" },
    });
    return { app, server: gitServer };
  }

  /** Pushes a PR commit changing app line 11 and delivers `pull_request.opened` with the http clone URL. */
  async function openPr(h: AppHarness, server: GitHttpServer): Promise<string> {
    const head = fx.push({ "src/app.ts": LOOP_BUG_APP }, "first");
    h.scenario([
      {
        role: "reviewer",
        answer: {
          summary: "One problem in the loop.",
          findings: [{ ...LOOP_AUTO_FIX, severity: "warning" }],
          resolved: [],
        },
      },
    ]);
    await fx.pullRequest("opened", head, {
      title: `GHE change ${fx.pr}`,
      cloneUrl: server.url("origin.git"),
      installationId: INSTALLATION_ID,
    });
    if (process.env.DUMP_LOGS)
      console.log(
        h.logs
          .lines()
          .map((l) => `${String(l.time)} ${String(l.msg)}`)
          .join("\n"),
      );
    return head;
  }

  function expectEverythingOnGhe(): void {
    expect(unmatched, "in-process requests nock had no interceptor for").toEqual([]);
    expect(fx.github.requests.length).toBeGreaterThan(0);
    for (const r of fx.github.requests) expect(r.path, `${r.method} ${r.path}`).toMatch(/^\/api\/(v3\/|graphql$)/);
    // nothing the app sent to GitHub carries the token
    const sent = JSON.stringify(fx.github.requests);
    expect(sent).not.toContain(INSTALLATION_TOKEN);
    expect(sent).not.toContain(TOKEN_BASIC);
  }

  function expectTokenNotStored(h: AppHarness): void {
    const files = filesUnder(fx.workspace);
    const config = join(fx.workspace, ".git", "config");
    expect(files).toContain(config);
    // no remote, no extraheader, no URL with credentials was written
    const configText = readFileSync(config, "utf8");
    expect(configText).not.toMatch(/extraheader|\[remote|\[http|127\.0\.0\.1/i);
    for (const file of files) {
      const text = readFileSync(file).toString("latin1");
      expect(text, file).not.toContain(INSTALLATION_TOKEN);
      expect(text, file).not.toContain(TOKEN_BASIC);
    }
    const logs = h.logs.text();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(INSTALLATION_TOKEN);
    expect(logs).not.toContain(TOKEN_BASIC);
    // the token never reached the logger at all (it would show up as a redaction)
    expect(logs).not.toContain("[redacted]");
  }

  it("opened → the PR is fetched over http with the token and one review is posted to the GHE API", async () => {
    const { app: h, server } = await start(INSTALLATION_TOKEN);
    expect(h.config.github).toMatchObject({ baseUrl: API_ROOT, host: GHE_HOST, protocol: "http" });

    const head = await openPr(h, server);

    // the installation token came from the GHE API root
    const tokenRequests = fx.github.sent("POST", "/access_tokens");
    expect(tokenRequests.length).toBeGreaterThan(0);
    for (const r of tokenRequests) expect(r.path).toBe(`/api/v3/app/installations/${INSTALLATION_ID}/access_tokens`);

    // git reached the http server, and every request it made carried the token as Basic auth;
    // git's environment and config are scrubbed, so it can only have come from its command line
    expect(server.authorizations.length).toBeGreaterThanOrEqual(2); // ref advertisement + upload-pack
    expect(server.authorizations).toEqual(server.authorizations.map(() => `Basic ${TOKEN_BASIC}`));

    // exactly one review, at the GHE review endpoint, with the inline comment on the head commit
    const reviews = fx.github.requests.filter((r) => r.method === "POST" && r.path.includes("/reviews"));
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.path).toBe(`/api/v3/repos/${OWNER}/${REPO}/pulls/${fx.pr}/reviews`);
    const review = fx.onlyReview(head);
    expect(review.comments[0].body).toContain("NM-1");
    expect(review.comments[0].body).toContain("Off-by-one in loop bound");
    expect(review.comments[0].body).toContain("```suggestion\nfor (i = 0; i < n; i++)\n```");
    expect(fx.github.reviews).toHaveLength(1);
    expect(fx.github.reviewComments).toHaveLength(1);

    // the check run completes; a warning does not fail it
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ name: "no-mistakes", status: "completed", conclusion: "success" });
    expect(fx.github.sent("POST", `/api/v3/repos/${OWNER}/${REPO}/check-runs`)).toHaveLength(1);

    expect(h.agentCalls()).toHaveLength(1);
    expect((await fx.run()).lastReviewedSha).toBe(head);

    expectEverythingOnGhe();
    expectTokenNotStored(h);
  });

  it("the git server wants a different token → the check run fails with a git fetch auth title and nothing else is posted", async () => {
    const { app: h, server } = await start(OTHER_TOKEN);

    const head = await openPr(h, server);

    // the app did try, with its own token, and was refused
    expect(server.authorizations.length).toBeGreaterThan(0);
    expect(server.authorizations).toContain(`Basic ${TOKEN_BASIC}`);
    expect(server.authorizations).not.toContain(`Basic ${encodeBasicAuth(OTHER_TOKEN)}`);

    const checks = [...fx.github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(checks).toHaveLength(1);
    const check = checks[0]!;
    expect(check).toMatchObject({ name: "no-mistakes", status: "completed", conclusion: "failure" });
    expect(check.output.title).toMatch(/git fetch/i);
    expect(check.output.title).toMatch(/auth/i);
    expect(check.output.summary).toMatch(/authentication failed|401/i);
    expect(JSON.stringify(check.output)).not.toContain(INSTALLATION_TOKEN);
    expect(JSON.stringify(check.output)).not.toContain(TOKEN_BASIC);

    // no agent turn, no review, no comments, no threads: only the token and the check run were written
    expect(h.agentCalls()).toHaveLength(0);
    expect(fx.github.reviews).toHaveLength(0);
    expect(fx.github.reviewComments).toHaveLength(0);
    expect(fx.github.issueComments).toHaveLength(0);
    const writes = fx.github.requests
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path.replace(/\d+$/, ":id")}`);
    expect(new Set(writes)).toEqual(
      new Set([
        `POST /api/v3/app/installations/${INSTALLATION_ID}/access_tokens`,
        `POST /api/v3/repos/${OWNER}/${REPO}/check-runs`,
        `PATCH /api/v3/repos/${OWNER}/${REPO}/check-runs/:id`,
      ]),
    );
    expect(fx.github.sent("POST", `/check-runs`)).toHaveLength(1);
    expect((await fx.run()).lastReviewedSha).toBeNull();

    expectEverythingOnGhe();
    expectTokenNotStored(h);
  });
});
