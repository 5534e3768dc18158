import { join } from "node:path";
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude-code.js";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import { listTurns } from "../../src/db/turns.js";
import { startAppHarness, type AppHarness } from "../helpers/app-harness.js";
import { messagesText, startFakeAnthropicServer, type FakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { GitRemote } from "../helpers/git-remote.js";
import { GitHubStandIn } from "../helpers/github-stand-in.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

const OWNER = "octo-org";
const REPO = "widgets";
const REPO_ID = 4343;
const PR = 7;

function numbered(prefix: string, n = 30, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
}

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1"); // the fake model server (the CLI runs in its own process anyway)
});
afterAll(async () => {
  await database.dispose();
  nock.enableNetConnect();
  removeTempDirs();
});

describe("a review through the app with the Claude Code adapter", () => {
  let root: string;
  let remote: GitRemote;
  let github: GitHubStandIn;
  let app: AppHarness;
  let model: FakeAnthropicServer;

  beforeEach(async () => {
    root = tempDir();
    remote = new GitRemote(root);
    model = await startFakeAnthropicServer();
    github = new GitHubStandIn({ owner: OWNER, repo: REPO, installationId: 99, bareRepo: remote.bare, baseRef: "main" });
    github.install();
    const dataDir = join(root, "data");
    const agent = new ClaudeCodeAgent({ homeDir: join(dataDir, "agents"), apiKey: "sk-ant-flow-test", baseUrl: model.url, killGraceMs: 1000 });
    app = await startAppHarness({ database: database.handle, dataDir, agent, env: { AGENT_TIMEOUT: "60s" } });
  });
  afterEach(async () => {
    await app?.stop();
    await model?.close();
  });

  it("opened → the real CLI reviews against the fake model, and its finding is posted", async () => {
    const baseSha = remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    remote.publish("main");
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }) }, "first");
    const head = remote.publish("feature", PR);

    model.enqueue({
      text: [
        "I looked at the diff.",
        "```json",
        JSON.stringify({
          summary: "One off-by-one.",
          findings: [
            { path: "src/app.ts", line: 11, severity: "error", action: "ask-user", title: "Off-by-one in loop bound", body: "`<=` reads past the end." },
          ],
          resolved: [],
        }),
        "```",
      ].join("\n"),
    });
    await app.receive(
      "pull_request",
      pullRequestPayload({ action: "opened", number: PR, title: "Loop change", baseSha, headRef: "feature", headSha: head, cloneUrl: remote.bare, repoId: REPO_ID, fullName: `${OWNER}/${REPO}` }),
    );
    await app.idle(90_000);

    // The CLI asked the fake model, with the PR's diff in its prompt.
    expect(model.mainCalls().length).toBeGreaterThanOrEqual(1);
    expect(messagesText(model.mainCalls()[0]!)).toContain("i <= n");

    const reviews = github.sent("POST", `/pulls/${PR}/reviews`);
    expect(reviews).toHaveLength(1);
    const review = reviews[0]!.body;
    expect(review).toMatchObject({ commit_id: head, event: "COMMENT" });
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0]).toMatchObject({ path: "src/app.ts", line: 11, side: "RIGHT" });
    expect(review.comments[0].body).toContain("Off-by-one in loop bound");

    const run = (await findRun(database.handle.db, REPO_ID, PR))!;
    expect(run.lastReviewedSha).toBe(head);
    expect((await listFindings(database.handle.db, run.id)).map((f) => [f.number, f.title, f.status])).toEqual([[1, "Off-by-one in loop bound", "open"]]);
    const turns = await listTurns(database.handle.db, run.id);
    expect(turns.map((t) => [t.role, t.agent, t.sessionMode, t.status])).toEqual([["reviewer", "claude", "started", "succeeded"]]);
    expect(turns[0]!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  }, 120_000);
});
