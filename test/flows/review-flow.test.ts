import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import { listTurns } from "../../src/db/turns.js";
import { startAppHarness, type AppHarness } from "../helpers/app-harness.js";
import { GitRemote } from "../helpers/git-remote.js";
import { GitHubStandIn, INSTALLATION_TOKEN } from "../helpers/github-stand-in.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

const OWNER = "octo-org";
const REPO = "widgets";
const REPO_ID = 4242;

/** A 30-line file whose lines are easy to point at. */
function numbered(prefix: string, n = 30, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
}

let database: TestDatabase;
let prNumber = 0;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  nock.disableNetConnect();
});
afterAll(async () => {
  await database.dispose();
  nock.enableNetConnect();
  removeTempDirs();
});

describe("review on every push", () => {
  let root: string;
  let remote: GitRemote;
  let github: GitHubStandIn;
  let app: AppHarness;
  let pr: number;
  let baseSha: string;

  beforeEach(async () => {
    root = tempDir();
    pr = ++prNumber;
    remote = new GitRemote(root);
    baseSha = remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    remote.publish("main");
    github = new GitHubStandIn({ owner: OWNER, repo: REPO, installationId: 99, bareRepo: remote.bare, baseRef: "main" });
    github.install();
    app = await startAppHarness({ database: database.handle, dataDir: join(root, "data") });
  });
  afterEach(async () => {
    await app?.stop();
  });

  function payload(action: string, headSha: string, extra: Partial<Parameters<typeof pullRequestPayload>[0]> = {}) {
    return pullRequestPayload({
      action,
      number: pr,
      title: `Widget change ${pr}`,
      baseSha,
      headRef: "feature",
      headSha,
      cloneUrl: remote.bare,
      repoId: REPO_ID,
      fullName: `${OWNER}/${REPO}`,
      ...extra,
    });
  }

  /** Opens the PR with a first commit changing app lines 10-12 and adding src/new.ts, and runs the first review. */
  async function openAndReview(): Promise<string> {
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i <= n; i++)", 12: "changed 12" }), "src/new.ts": numbered("new", 5) }, "first");
    const head = remote.publish("feature", pr);
    app.scenario([
      {
        role: "reviewer",
        match: "src/new.ts",
        times: 1,
        answer: {
          summary: "Two problems in the loop code.",
          findings: [
            { path: "src/app.ts", line: 11, severity: "error", action: "auto-fix", title: "Off-by-one in loop bound", body: "`<=` reads past the end.", suggestion: "for (i = 0; i < n; i++)" },
            { path: "src/app.ts", line: 25, severity: "warning", action: "ask-user", title: "Unused helper", body: "Nothing calls this." },
            { path: "../../etc/passwd", line: 1, severity: "info", action: "no-op", title: "Outside", body: "x" },
            { path: "src/new.ts", line: 99, severity: "info", action: "no-op", title: "Beyond the end", body: "x" },
          ],
          resolved: [],
        },
      },
    ]);
    await app.receive("pull_request", payload("opened", head));
    await app.idle();
    return head;
  }

  it("opened → one review with inline and body findings, a summary comment and a check run", async () => {
    const head = await openAndReview();

    // one review, event COMMENT, on the head commit
    const reviews = github.sent("POST", `/pulls/${pr}/reviews`);
    expect(reviews).toHaveLength(1);
    const review = reviews[0]!.body;
    expect(review).toMatchObject({ commit_id: head, event: "COMMENT" });
    // the finding on a diff line is inline, with a suggestion block
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0]).toMatchObject({ path: "src/app.ts", line: 11, side: "RIGHT" });
    expect(review.comments[0].body).toContain("NM-1");
    expect(review.comments[0].body).toContain("```suggestion\nfor (i = 0; i < n; i++)\n```");
    // the finding off the diff goes into the body; the unplaceable ones are noted, never posted
    expect(review.body).toContain("NM-2");
    expect(review.body).toContain("Unused helper");
    expect(review.body).toContain("line not part of the diff");
    expect(review.body).toContain("the path is outside the repository");
    expect(review.body).toContain("line 99 is outside the file (5 lines)");
    expect(JSON.stringify(review.comments)).not.toContain("passwd");

    // check run: in progress, then failure (an open error finding)
    const check = [...github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ name: "no-mistakes", status: "completed", conclusion: "failure" });
    expect(check.output.title).toBe("2 open findings (1 error, 1 warning)");
    expect(check.output.summary).toContain("NM-1");

    // one summary comment with the ledger and the turn
    expect(github.issueComments).toHaveLength(1);
    const summary = github.issueComments[0]!.body;
    expect(summary).toContain("<!-- no-mistakes:summary -->");
    expect(summary).toMatch(/\| NM-1 \| 🔴 error \| `src\/app.ts:11` \| Off-by-one in loop bound \| open \|/);
    expect(summary).toMatch(/\| 1 \| reviewer \| opened \| [0-9a-f]{7} \| started \| succeeded \|/);

    // ledger and run
    const run = (await findRun(database.handle.db, REPO_ID, pr))!;
    expect(run.lastReviewedSha).toBe(head);
    const ledger = await listFindings(database.handle.db, run.id);
    expect(ledger.map((f) => [f.number, f.status, f.commentId !== null])).toEqual([
      [1, "open", true],
      [2, "open", false],
    ]);
    expect((await listTurns(database.handle.db, run.id)).map((t) => [t.role, t.sessionMode, t.status])).toEqual([["reviewer", "started", "succeeded"]]);
  });
});
