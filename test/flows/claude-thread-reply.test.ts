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
import { BOT_USER, GitHubStandIn } from "../helpers/github-stand-in.js";
import { reviewCommentPayload } from "../helpers/review-comment-payload.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

const OWNER = "octo-org";
const REPO = "widgets";
const REPO_ID = 4344;
const PR = 8;

function numbered(prefix: string, n = 30, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
}

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  nock.disableNetConnect();
  nock.enableNetConnect("127.0.0.1"); // the fake model server
});
afterAll(async () => {
  await database.dispose();
  nock.enableNetConnect();
  removeTempDirs();
});

describe("a reply in a finding's thread, answered by the real Claude Code CLI", () => {
  let root: string;
  let remote: GitRemote;
  let github: GitHubStandIn;
  let app: AppHarness;
  let model: FakeAnthropicServer;

  beforeEach(async () => {
    root = tempDir();
    remote = new GitRemote(root);
    model = await startFakeAnthropicServer();
    github = new GitHubStandIn({ owner: OWNER, repo: REPO, installationId: 99, bareRepo: remote.bare, baseRef: "main", permissions: { maintainer: "write" } });
    github.install();
    const dataDir = join(root, "data");
    const agent = new ClaudeCodeAgent({ homeDir: join(dataDir, "agents"), apiKey: "sk-ant-flow-test", baseUrl: model.url, killGraceMs: 1000 });
    app = await startAppHarness({ database: database.handle, dataDir, agent, env: { AGENT_TIMEOUT: "60s" } });
  });
  afterEach(async () => {
    await app?.stop();
    await model?.close();
  });

  it("resumes the review's session: the model is sent the original review turn's messages, then the reply; the ruling lands in the thread", async () => {
    const baseSha = remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    remote.publish("main");
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }) }, "first");
    const head = remote.publish("feature", PR);
    const reviewAnswer = JSON.stringify({
      summary: "One off-by-one.",
      findings: [{ path: "src/app.ts", line: 11, severity: "error", action: "ask-user", title: "Off-by-one in loop bound", body: "`<=` reads past the end." }],
      resolved: [],
    });
    model.enqueue({ text: reviewAnswer });
    await app.receive(
      "pull_request",
      pullRequestPayload({ action: "opened", number: PR, title: "Loop change", baseSha, headRef: "feature", headSha: head, cloneUrl: remote.bare, repoId: REPO_ID, fullName: `${OWNER}/${REPO}` }),
    );
    await app.idle(90_000);
    const reviewCalls = model.mainCalls().length;
    expect(reviewCalls).toBeGreaterThanOrEqual(1);
    const nm1 = github.reviewComments.find((c) => c.body.includes("<!-- no-mistakes:NM-1 -->"))!;
    expect(nm1).toBeDefined();

    model.enqueue({ text: JSON.stringify({ ruling: "withdrawn", reason: "Every caller passes n - 1.", reply: "You are right: the callers pass `n - 1`." }) });
    const reply = github.humanReviewReply({ login: "maintainer" }, nm1.id, "Callers always pass n - 1 here.");
    await app.receive("pull_request_review_comment", reviewCommentPayload({ pr: PR, repoId: REPO_ID, fullName: `${OWNER}/${REPO}`, cloneUrl: remote.bare }, reply));
    await app.idle(90_000);

    // The thread turn's request carries the review turn's conversation: its prompt (with the diff) and the
    // model's own review answer come before the reply — the session was resumed, not rebuilt from a summary.
    const calls = model.mainCalls();
    expect(calls.length).toBeGreaterThan(reviewCalls);
    const threadCall = calls.at(-1)!;
    const text = messagesText(threadCall);
    const reviewPrompt = text.indexOf("i <= n");
    const reviewAnswerAt = text.indexOf("One off-by-one.");
    const argument = text.indexOf("Callers always pass n - 1 here.");
    expect(reviewPrompt).toBeGreaterThanOrEqual(0);
    expect(reviewAnswerAt).toBeGreaterThan(reviewPrompt);
    expect(argument).toBeGreaterThan(reviewAnswerAt);
    expect(threadCall.messages.filter((m) => m.role === "assistant").length).toBeGreaterThanOrEqual(1);

    const answers = github.reviewComments.filter((c) => c.in_reply_to_id === nm1.id && c.user.id === BOT_USER.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.body).toContain("the callers pass `n - 1`");
    expect(answers[0]!.body).toContain("**NM-1: withdrawn**");
    const run = (await findRun(database.handle.db, REPO_ID, PR))!;
    expect((await listFindings(database.handle.db, run.id)).map((f) => [f.number, f.status, f.ruling])).toEqual([[1, "withdrawn", "withdrawn"]]);
    const turns = await listTurns(database.handle.db, run.id);
    expect(turns.map((t) => [t.role, t.trigger, t.sessionMode, t.status])).toEqual([
      ["reviewer", "opened", "started", "succeeded"],
      ["reviewer", "thread-reply", "resumed", "succeeded"],
    ]);
    expect(turns[1]!.sessionId).toBe(turns[0]!.sessionId);
  }, 180_000);
});
