import { describe, expect, it } from "vitest";
import { FlowFixture, LOOP_FINDING, numbered, PR_APP } from "../helpers/flow-fixture.js";
import type { PrShape } from "../helpers/webhook-payloads.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const WRITER = { login: "maintainer" };
const CLEAN = { summary: "Looks fine.", findings: [], resolved: [] };

async function start(configYaml: string, pull: Partial<PrShape> = {}): Promise<void> {
  fx = await FlowFixture.start(database.handle, { configYaml, permissions: { maintainer: "write" } });
  fx.pull = pull;
}

/** What the app sent GitHub about check runs (POST and PATCH bodies), oldest first. */
function checkRunBodies(): any[] {
  return fx.github.requests
    .filter((r) => /\/check-runs(\/\d+)?$/.test(r.path) && r.method !== "GET")
    .map((r) => r.body);
}

/** The verdicts of a head no review has looked at: neutral only when the rule judged the PR's author. */
const BY_AUTHOR = { conclusion: "neutral", output: { title: "Review skipped" } };
const NOT_REVIEWED = { conclusion: "failure", output: { title: "Review skipped · not reviewed" } };

/** The head's one check run was written as a skip (failing unless `verdict` says otherwise), its summary naming the rule. */
function expectSkippedCheck(head: string, says: string, verdict: object = NOT_REVIEWED): void {
  const posted = fx.github.sent("POST", "/check-runs");
  expect(posted).toHaveLength(1);
  expect(posted[0]!.body).toMatchObject({ head_sha: head, name: "no-mistakes", status: "completed", ...verdict });
  const summary: string = posted[0]!.body.output.summary;
  expect(summary).toContain(says);
  expect(summary).toContain("`/no-mistakes review`");
}

/** Opens the PR (skipped: no agent call), then a writer's `/no-mistakes review` reviews it anyway. */
async function skippedThenReviewed(extra: Partial<PrShape>, says: string, verdict?: object): Promise<void> {
  const head = fx.push({ "src/app.ts": PR_APP });
  fx.app.scenario([{ role: "reviewer", answer: { summary: "Reviewed on request.", findings: [LOOP_FINDING] } }]);
  await fx.pullRequest("opened", head, extra);
  expect(fx.app.agentCalls()).toHaveLength(0);
  expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(0);
  expectSkippedCheck(head, says, verdict);
  const logged = fx.app.logs.lines().find((l) => l.msg === "review skipped");
  expect(logged).toMatchObject({ role: "reviewer", runId: (await fx.run()).id, deliveryId: expect.any(String) });

  await fx.comment("/no-mistakes review", WRITER);
  expect(fx.app.agentCalls()).toHaveLength(1);
  expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1);
  // the same check run, now carrying the review's verdict
  expect(fx.github.sent("POST", "/check-runs")).toHaveLength(1);
  expect(checkRunBodies().at(-1)).toMatchObject({ status: "completed", conclusion: "failure" });
}

describe("ignore: rules keep a PR from automatic review, with the reason on its check run", () => {
  it("ignore.authors: neutral (no one can pass for the author)", async () => {
    await start("ignore:\n  authors: [Renovate-Bot]\n");
    await skippedThenReviewed(
      { author: "renovate-bot" },
      "its author, `renovate-bot`, is in `ignore.authors`",
      BY_AUTHOR,
    );
  });

  it("ignore.labels", async () => {
    await start("ignore:\n  labels: [no-review]\n");
    await skippedThenReviewed(
      { labels: ["enhancement", "No-Review"] },
      "it has the label `No-Review`, which is in `ignore.labels`",
    );
  });

  it("ignore.title, plain text: case-insensitive, anywhere in the title", async () => {
    await start("ignore:\n  title: ['[skip review]']\n");
    await skippedThenReviewed(
      { title: "Bump deps [Skip Review]" },
      "its title matches `[skip review]` in `ignore.title`",
    );
  });

  it("ignore.title, /regex/flags", async () => {
    await start("ignore:\n  title: ['/^(wip|draft)\\b/i']\n");
    await skippedThenReviewed({ title: "WIP: widgets" }, "its title matches `/^(wip|draft)\\b/i` in `ignore.title`");
  });

  it("ignore.base_branches (glob)", async () => {
    await start("ignore:\n  base_branches: ['release/*']\n");
    fx.remote.git(fx.remote.bare, "branch", "release/2.1", "main");
    await skippedThenReviewed(
      { baseRef: "release/2.1" },
      "its base branch, `release/2.1`, matches `release/*` in `ignore.base_branches`",
    );
  });

  it("ignore.head_branches (glob; ** crosses slashes)", async () => {
    await start("ignore:\n  head_branches: ['dependabot/**']\n");
    await skippedThenReviewed(
      { headRef: "dependabot/npm/left-pad-2.0" },
      "its head branch, `dependabot/npm/left-pad-2.0`, matches `dependabot/**` in `ignore.head_branches`",
    );
  });

  it("a PR that meets no rule is reviewed as usual", async () => {
    await start(
      "ignore:\n  authors: [renovate-bot]\n  labels: [no-review]\n  title: ['/^wip/i', 'skip review']\n  head_branches: ['dependabot/**']\n",
    );
    const head = fx.push({ "src/app.ts": PR_APP });
    fx.app.scenario([{ role: "reviewer", answer: CLEAN }]);
    await fx.pullRequest("opened", head, { title: "Widgets: not wip", labels: ["enhancement"] });
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(checkRunBodies().some((b) => b.output?.title === "Review skipped")).toBe(false);
  });

  it("the existing skips (draft, another bot's PR) say why on the check run too; this app's own push is reviewed", async () => {
    await start("");
    const head = fx.push({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    fx.app.scenario([{ role: "reviewer", answer: CLEAN }]);
    await fx.pullRequest("opened", head, { draft: true });
    expectSkippedCheck(head, "the PR is a draft (`review.drafts` is off)");
    // a draft cannot be merged, but marking it ready would leave a passing check until its review starts
    expect(checkRunBodies().at(-1)).toMatchObject(NOT_REVIEWED);
    await fx.pullRequest("synchronize", head, { sender: { login: "no-mistakes[bot]", type: "Bot" } });
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(fx.github.sent("POST", "/check-runs")).toHaveLength(1); // the head's one check run, updated
    expect(checkRunBodies().at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
  });

  it("another bot's PR, pushed by itself: neutral, naming its author", async () => {
    await start("", { author: "dependabot[bot]", authorType: "Bot" });
    const head = fx.push({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    await fx.pullRequest("synchronize", head, { sender: { login: "dependabot[bot]", type: "Bot" } });
    expect(fx.app.agentCalls()).toHaveLength(0);
    expectSkippedCheck(head, "its author is another bot, `dependabot[bot]` (`review.bots` is off)", BY_AUTHOR);
  });
});

describe("labels on the run", () => {
  it("removing the skip label queues the review of the skipped head; adding one later cancels nothing and leaves the verdict", async () => {
    await start("ignore:\n  labels: [no-review]\n", { labels: ["no-review"] });
    const head = fx.push({ "src/app.ts": PR_APP });
    fx.app.scenario([{ role: "reviewer", answer: { summary: "Now reviewed.", findings: [LOOP_FINDING] } }]);
    await fx.pullRequest("opened", head, { updatedAt: "2026-01-01T00:00:00Z" });
    expect((await fx.run()).labels).toEqual(["no-review"]);
    expect(fx.app.agentCalls()).toHaveLength(0);
    expectSkippedCheck(head, "`no-review`");

    fx.pull = { labels: [] };
    await fx.pullRequest("unlabeled", head, { label: "no-review", updatedAt: "2026-01-01T00:01:00Z" });
    expect((await fx.run()).labels).toEqual([]);
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1);
    const verdict = checkRunBodies().at(-1);
    expect(verdict).toMatchObject({ status: "completed", conclusion: "failure" });

    // the label is back: the run's labels follow, nothing is queued, the head's verdict stays
    const sentBefore = fx.github.requests.length;
    fx.pull = { labels: ["no-review"] };
    await fx.pullRequest("labeled", head, { label: "no-review", updatedAt: "2026-01-01T00:02:00Z" });
    expect((await fx.run()).labels).toEqual(["no-review"]);
    expect(fx.github.requests.slice(sentBefore).filter((r) => r.method !== "GET")).toEqual([]);
    // and removing it from a reviewed head reviews nothing again
    fx.pull = { labels: [] };
    await fx.pullRequest("unlabeled", head, { label: "no-review", updatedAt: "2026-01-01T00:03:00Z" });
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(checkRunBodies().at(-1)).toEqual(verdict);
  });

  it("removing a label while another skip label stays keeps the PR skipped", async () => {
    await start("ignore:\n  labels: [no-review, wip]\n", { labels: ["no-review", "wip"] });
    const head = fx.push({ "src/app.ts": PR_APP });
    await fx.pullRequest("opened", head, { updatedAt: "2026-01-01T00:00:00Z" });
    fx.pull = { labels: ["wip"] };
    await fx.pullRequest("unlabeled", head, { label: "no-review", updatedAt: "2026-01-01T00:01:00Z" });
    expect(fx.app.agentCalls()).toHaveLength(0);
    expect(fx.github.sent("POST", "/check-runs")).toHaveLength(1);
    expect(checkRunBodies().at(-1)!.output.summary).toContain("it has the label `wip`");
  });
});

describe("editing the PR", () => {
  const WIP = "ignore:\n  title: ['/^wip\\b/i']\n";

  /** Requests the app sent GitHub since `from` that change something (reads and token requests left out). */
  const writesSince = (from: number) =>
    fx.github.requests.slice(from).filter((r) => r.method !== "GET" && !r.path.endsWith("/access_tokens"));

  /** Opens the PR titled "WIP: widgets": skipped by `ignore.title`, the agent not asked. */
  async function openWip(extra: Partial<PrShape> = {}): Promise<string> {
    const head = fx.push({ "src/app.ts": PR_APP });
    fx.app.scenario([{ role: "reviewer", answer: { summary: "Now reviewed.", findings: [LOOP_FINDING] } }]);
    await fx.pullRequest("opened", head, { updatedAt: "2026-01-01T00:00:00Z", ...extra });
    expect(fx.app.agentCalls()).toHaveLength(0);
    expectSkippedCheck(head, "its title matches");
    return head;
  }

  it("retitling away from an ignore.title pattern reviews the skipped head; a retitle of the reviewed head changes nothing", async () => {
    await start(WIP, { title: "WIP: widgets" });
    const head = await openWip();

    fx.pull = { title: "Widgets" };
    await fx.pullRequest("edited", head, {
      changes: { title: { from: "WIP: widgets" } },
      updatedAt: "2026-01-01T00:01:00Z",
    });
    expect((await fx.run()).title).toBe("Widgets");
    const [call] = fx.app.agentCalls();
    expect(call!.prompt).toContain("title: Widgets");
    expect(call!.prompt).not.toContain("WIP: widgets");
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1);
    // the head's one check run, now carrying the review's verdict
    expect(fx.github.sent("POST", "/check-runs")).toHaveLength(1);
    const verdict = checkRunBodies().at(-1);
    expect(verdict).toMatchObject({ status: "completed", conclusion: "failure" });

    // retitled again, even back to WIP: the run follows, the reviewed head and its verdict are left alone
    for (const [title, from, at] of [
      ["Widgets, done", "Widgets", "02"],
      ["WIP: widgets, again", "Widgets, done", "03"],
    ] as const) {
      const sentBefore = fx.github.requests.length;
      fx.pull = { title };
      await fx.pullRequest("edited", head, { changes: { title: { from } }, updatedAt: `2026-01-01T00:${at}:00Z` });
      expect((await fx.run()).title).toBe(title);
      expect(writesSince(sentBefore)).toEqual([]);
    }
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(checkRunBodies().at(-1)).toEqual(verdict);
    const looked = fx.app.logs
      .lines()
      .filter((l) => l.msg === "this head was reviewed already; nothing to look at again");
    expect(looked).toHaveLength(2);
    expect(looked[0]).toMatchObject({ role: "reviewer", trigger: "edited", headSha: head });
  });

  it("an edit of the body only refreshes the run: nothing is queued, nothing is posted", async () => {
    await start(WIP, { title: "WIP: widgets" });
    const head = await openWip({ body: "First draft." });
    const sentBefore = fx.github.requests.length;

    await fx.pullRequest("edited", head, {
      body: "Now with tests.",
      changes: { body: { from: "First draft." } },
      updatedAt: "2026-01-01T00:01:00Z",
    });
    expect((await fx.run()).body).toBe("Now with tests.");
    expect(fx.app.logs.lines()).toContainEqual(
      expect.objectContaining({ event: "pull_request.edited", msg: "run refreshed; nothing to review" }),
    );
    expect(fx.app.agentCalls()).toHaveLength(0);
    expect(writesSince(sentBefore)).toEqual([]);
  });

  it("retitling away from WIP while a skip label stays keeps the skip, now naming the label", async () => {
    await start("ignore:\n  labels: [no-review]\n  title: ['/^wip\\b/i']\n", {
      title: "WIP: widgets",
      labels: ["no-review"],
    });
    const head = fx.push({ "src/app.ts": PR_APP });
    await fx.pullRequest("opened", head, { updatedAt: "2026-01-01T00:00:00Z" });
    expectSkippedCheck(head, "it has the label `no-review`");

    fx.pull = { title: "Widgets", labels: ["no-review"] };
    await fx.pullRequest("edited", head, {
      changes: { title: { from: "WIP: widgets" } },
      updatedAt: "2026-01-01T00:01:00Z",
    });
    expect(fx.app.agentCalls()).toHaveLength(0);
    expect(fx.github.sent("POST", "/check-runs")).toHaveLength(1);
    expect(checkRunBodies().at(-1)).toMatchObject(NOT_REVIEWED);
    expect(checkRunBodies().at(-1)!.output.summary).toContain("it has the label `no-review`");
  });

  it("moving the PR to a base branch that is not ignored reviews its head", async () => {
    await start("ignore:\n  base_branches: ['release/*']\n", { baseRef: "release/2.1" });
    fx.remote.git(fx.remote.bare, "branch", "release/2.1", "main");
    const head = fx.push({ "src/app.ts": PR_APP });
    fx.app.scenario([{ role: "reviewer", answer: CLEAN }]);
    await fx.pullRequest("opened", head, { updatedAt: "2026-01-01T00:00:00Z" });
    expectSkippedCheck(head, "its base branch, `release/2.1`");

    fx.pull = { baseRef: "main" };
    await fx.pullRequest("edited", head, {
      changes: { base: { ref: { from: "release/2.1" }, sha: { from: fx.baseSha } } },
      updatedAt: "2026-01-01T00:01:00Z",
    });
    expect((await fx.run()).baseRef).toBe("main");
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(checkRunBodies().at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
  });
});

describe("ignore config problems", () => {
  it("an invalid title regex is reported with its line on the skipped check run; the rest of the file still applies", async () => {
    await start("ignore:\n  labels: [no-review]\n  title: ['/(unclosed/']\n");
    const head = fx.push({ "src/app.ts": PR_APP });
    await fx.pullRequest("opened", head, { labels: ["no-review"] });
    const summary: string = fx.github.sent("POST", "/check-runs")[0]!.body.output.summary;
    // the labels rule in the same file still skips the PR: only the bad setting was left out
    expect(summary).toContain("it has the label `no-review`, which is in `ignore.labels`");
    expect(summary).toContain("A config file on the default branch has a problem; that setting was left out");
    expect(summary).toContain(".github/no-mistakes.yml line 3: `ignore.title.0`: not a valid regular expression");
    expect(summary).toContain("/(unclosed/: Unterminated group");
  });
});

describe("ignore.paths", () => {
  const GENERATED = numbered("SECRET-GENERATED-TEXT", 8);

  it("leaves the files out of the reviewer's prompt and out of inline comments; the review says how many, and why a finding on one is not inline", async () => {
    await start("ignore:\n  paths: ['docs/**', 'gen/**']\n");
    const head = fx.push({
      "src/app.ts": PR_APP,
      "gen/schema.ts": GENERATED,
      "package-lock.json": '{ "lockfileVersion": 3, "LOCKFILE-TEXT": true }\n',
    });
    fx.app.scenario([
      {
        role: "reviewer",
        answer: {
          summary: "One bug, one on generated code.",
          findings: [
            LOOP_FINDING,
            { path: "gen/schema.ts", line: 2, severity: "warning", action: "ask-user", title: "Generated", body: "x" },
            { path: "README.md", line: 1, severity: "info", action: "no-op", title: "Unchanged", body: "y" },
          ],
        },
      },
    ]);
    await fx.pullRequest("opened", head);
    const [call] = fx.app.agentCalls();
    expect(call!.prompt).toContain("for (i = 0; i <= n; i++)");
    expect(call!.prompt).not.toContain("SECRET-GENERATED-TEXT");
    // `paths` replaces the defaults only when given: here it is, so the lockfile is reviewed
    expect(call!.prompt).toContain("LOCKFILE-TEXT");

    const review = fx.onlyReview(head); // one inline comment, on src/app.ts:11
    expect(review.comments.some((c: any) => c.path === "gen/schema.ts")).toBe(false);
    // a finding on a file ignore.paths left out says so, naming the glob; one on a file the PR did not touch says that
    expect(review.body).toContain("— **Generated**: x _(file ignored by `ignore.paths` (`gen/**`))_");
    expect(review.body).toContain("— **Unchanged**: y _(file not changed in this PR)_");
    expect(review.body).not.toMatch(/Generated.*file not changed in this PR/);
    expect(review.body).toContain("1 file was left out of the review by `ignore.paths`: `gen/schema.ts`.");
    expect(fx.summary()).toContain("1 file was left out of the review by `ignore.paths`");
  });

  it("lockfiles and generated files are left out by default", async () => {
    await start("");
    const head = fx.push({
      "src/app.ts": PR_APP,
      "package-lock.json": '{ "LOCKFILE-TEXT": true }\n',
      "web/app.min.js": "MINIFIED-TEXT\n",
    });
    const lockfileFinding = {
      path: "package-lock.json",
      line: 1,
      severity: "info",
      action: "no-op",
      title: "Lock",
      body: "z",
    };
    fx.app.scenario([{ role: "reviewer", answer: { ...CLEAN, findings: [lockfileFinding] } }]);
    await fx.pullRequest("opened", head);
    const [call] = fx.app.agentCalls();
    expect(call!.prompt).toContain("for (i = 0; i <= n; i++)");
    expect(call!.prompt).not.toContain("LOCKFILE-TEXT");
    expect(call!.prompt).not.toContain("MINIFIED-TEXT");
    const body: string = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[0]!.body.body;
    expect(body).toContain(
      "2 files were left out of the review by `ignore.paths`: `package-lock.json`, `web/app.min.js`.",
    );
    expect(body).toContain("— **Lock**: z _(file ignored by `ignore.paths` (`**/package-lock.json`))_");
  });

  it("a finding on a file a private repository's ignore.paths left out: said to be ignored, without quoting the private glob", async () => {
    fx = await FlowFixture.start(database.handle, {
      repoFiles: { "octo-org/.github:.github/no-mistakes.yml": "ignore:\n  paths: ['embargoed-gen/**']\n" },
      repoVisibility: { "octo-org/.github": "private" },
    });
    const head = fx.push({ "src/app.ts": PR_APP, "embargoed-gen/schema.ts": GENERATED });
    const generated = {
      path: "embargoed-gen/schema.ts",
      line: 2,
      severity: "info",
      action: "no-op",
      title: "Gen",
      body: "w",
    };
    fx.app.scenario([{ role: "reviewer", answer: { ...CLEAN, findings: [generated] } }]);
    await fx.pullRequest("opened", head);

    const body: string = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[0]!.body.body;
    expect(body).toContain("— **Gen**: w _(file ignored by `ignore.paths`)_");
    expect(body).not.toContain("embargoed-gen/**");
  });
});
