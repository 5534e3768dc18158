import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import nock from "nock";
import { expect } from "vitest";
import type { AgentSandbox } from "../../src/agents/sandbox/agent-sandbox.js";
import type { Agent } from "../../src/agents/types.js";
import type { DatabaseHandle } from "../../src/db/database.js";
import type { Finding, Run, Turn } from "../../src/db/schema.js";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import { listTurns } from "../../src/db/turns.js";
import { startAppHarness, type AppHarness } from "./app-harness.js";
import { GitRemote, type RemoteFile } from "./git-remote.js";
import { GitHubStandIn, type StandInOptions, type StoredReviewComment } from "./github-stand-in.js";
import { reviewCommentPayload } from "./review-comment-payload.js";
import { tempDir } from "./temp-dir.js";
import { examplePayload, pullRequestPayload, type PrShape } from "./webhook-payloads.js";

export const OWNER = "octo-org";
export const REPO = "widgets";
export const REPO_ID = 4242;

/** A file of `n` lines ("<prefix> line <i>"), with some lines replaced. */
export function numbered(prefix: string, n = 30, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
}

/** Every file below `dir`, recursively (e.g. a run's workspace, to search it for a secret). */
export function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(dir);
  return files;
}

/** src/app.ts with an off-by-one loop bound at line 11 (the bug the flow tests' reviewer finds). */
export const LOOP_BUG_APP = numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" });
/** LOOP_BUG_APP with the bound fixed. */
export const LOOP_FIXED_APP = numbered("app", 30, { 11: "for (i = 0; i < n; i++)" });
/** src/app.ts as a PR's first push leaves it: lines 10 to 12 changed, the loop bound at 11 off by one. */
export const PR_APP = numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i <= n; i++)", 12: "changed 12" });

/** The reviewer's finding on the loop bound at src/app.ts:11: an error for the author to answer. */
export const LOOP_FINDING = {
  path: "src/app.ts",
  line: 11,
  severity: "error",
  action: "ask-user",
  title: "Off-by-one in loop bound",
  body: "`<=` reads past the end.",
};
/** LOOP_FINDING for the fixer to fix, with the fix as GitHub's suggested change. */
export const LOOP_AUTO_FIX = { ...LOOP_FINDING, action: "auto-fix", suggestion: "for (i = 0; i < n; i++)" };
/** A reviewer's answer with LOOP_FINDING alone. */
export const ONE_BUG = { summary: "One bug.", findings: [LOOP_FINDING], resolved: [] };
/** A reviewer's answer resolving NM-1 (the loop bound, once fixed). */
export const NM1_FIXED = { summary: "Fixed.", findings: [], resolved: ["NM-1"] };

/**
 * The first review of PR_APP: NM-1 (error: the loop bound, with `action`) and NM-2 (info: a naming nit
 * on line 12).
 */
export function bugAndNitReview(action: "ask-user" | "auto-fix") {
  return {
    role: "reviewer",
    match: "Widget change",
    times: 1,
    answer: {
      summary: "One bug, one nit.",
      findings: [
        { ...LOOP_FINDING, action },
        {
          path: "src/app.ts",
          line: 12,
          severity: "info",
          action: "no-op",
          title: "Naming nit",
          body: "Consider a better name.",
        },
      ],
    },
  };
}

/** What the app under test is started with, beyond the fixture's database and data directory. */
export interface FlowAppOptions {
  env?: Record<string, string>;
  /** A real adapter instead of the fake agent. */
  agent?: Agent;
  /** The sandbox the repository's own commands run in (a real bubblewrap one: the app then runs checks). */
  sandbox?: AgentSandbox;
  /** How long the fixture waits for the app to be idle after a delivery (default: the harness's). */
  idleTimeoutMs?: number;
}

let nextPr = 100;

/** One pull request's world: a bare repo with `main`, the GitHub stand-in, and the running app. */
export class FlowFixture {
  readonly root = tempDir();
  readonly pr = ++nextPr;
  readonly remote = new GitRemote(this.root);
  readonly baseSha: string;
  github!: GitHubStandIn;
  app!: AppHarness;
  /** How GitHub describes the PR now (fork, deleted fork, maintainer edits, state): used by prPayload and by GET /pulls/:n. */
  pull: Partial<PrShape> = {};
  /** The database of the app started in this process. */
  private database: DatabaseHandle | undefined;
  private idleTimeoutMs: number | undefined;

  private constructor() {
    this.baseSha = this.remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    this.remote.publish("main");
  }

  static async start(
    database: DatabaseHandle,
    standIn: Partial<StandInOptions> = {},
    app: FlowAppOptions = {},
  ): Promise<FlowFixture> {
    const fixture = FlowFixture.withoutApp(standIn);
    await fixture.startApp(database, app);
    return fixture;
  }

  /** The PR's world with the stand-in installed and no app in this process (tests that run the app as processes). */
  static withoutApp(standIn: Partial<StandInOptions> = {}): FlowFixture {
    const fixture = new FlowFixture();
    fixture.installStandIn(standIn);
    return fixture;
  }

  /** Starts the app in this process on `database` (for a fixture made `withoutApp`, once what it needs is up). */
  async startApp(database: DatabaseHandle, options: FlowAppOptions = {}): Promise<AppHarness> {
    const { idleTimeoutMs, ...harness } = options;
    this.database = database;
    this.idleTimeoutMs = idleTimeoutMs;
    this.app = await startAppHarness({ database, dataDir: this.dataDir, ...harness });
    return this.app;
  }

  /** Waits until the app has applied every delivery and its queue is empty. */
  async idle(): Promise<void> {
    await this.app.idle(this.idleTimeoutMs);
  }

  /** A new GitHub stand-in in place of the current one (nothing recorded, its own failures and refusals). */
  replaceStandIn(standIn: Partial<StandInOptions>): void {
    nock.cleanAll();
    this.installStandIn(standIn);
  }

  private installStandIn(standIn: Partial<StandInOptions>): void {
    const pulls = standIn.pulls;
    this.github = new GitHubStandIn({
      owner: OWNER,
      repo: REPO,
      installationId: 99,
      bareRepo: this.remote.bare,
      baseRef: "main",
      ...standIn,
      // GitHub's answer for this PR is live: its head is what the branch holds now.
      pulls: (n) => (n === this.pr ? this.livePull() : typeof pulls === "function" ? pulls(n) : pulls?.[n]),
    });
    this.github.install();
  }

  /** The app's data directory (DATA_DIR). */
  get dataDir(): string {
    return join(this.root, "data");
  }

  /** The PR's workspace, the app's git checkout for its runs. */
  get workspace(): string {
    return join(this.dataDir, "workspaces", String(REPO_ID), String(this.pr));
  }

  /** GET /pulls/:n for this PR as GitHub would answer it now. */
  livePull(): Record<string, unknown> {
    const branch = this.pull.headRef ?? "feature";
    let headSha = this.baseSha;
    try {
      headSha = this.remote.remoteSha(`refs/heads/${branch}`);
    } catch {
      // no such branch yet: GitHub would still show the PR
    }
    return this.prPayload(this.pull.action ?? "opened", headSha).pull_request;
  }

  prPayload(action: string, headSha: string, extra: Partial<PrShape> = {}): Record<string, any> {
    return pullRequestPayload({
      action,
      number: this.pr,
      title: `Widget change ${this.pr}`,
      baseSha: this.baseSha,
      headRef: "feature",
      headSha,
      cloneUrl: this.remote.bare,
      repoId: REPO_ID,
      fullName: `${OWNER}/${REPO}`,
      ...this.pull,
      ...extra,
    });
  }

  /** A real issue_comment.created payload for this PR. */
  commentPayload(
    body: string,
    user: { login: string; type?: "User" | "Bot" } = { login: "maintainer" },
    commentId = Math.floor(Math.random() * 1e9),
  ): Record<string, any> {
    const payload = examplePayload("issue_comment", "created");
    payload.issue = {
      ...payload.issue,
      number: this.pr,
      pull_request: { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${this.pr}` },
    };
    payload.comment = {
      ...payload.comment,
      id: commentId,
      body,
      user: { ...payload.comment.user, login: user.login, type: user.type ?? "User" },
    };
    payload.repository = {
      ...payload.repository,
      id: REPO_ID,
      name: REPO,
      full_name: `${OWNER}/${REPO}`,
      clone_url: this.remote.bare,
    };
    payload.installation = { id: 99, node_id: "inst" };
    payload.sender = { ...payload.sender, login: user.login, type: user.type ?? "User" };
    return payload;
  }

  /** Commits on `feature`, publishes it as the PR head, and returns the new head. */
  push(files: Record<string, RemoteFile>, message = "change"): string {
    if (!this.remote.git(this.remote.work, "branch", "--list", "feature").trim()) this.remote.checkout("feature", true);
    this.remote.commit(files, message);
    return this.remote.publish("feature", this.pr);
  }

  /** GitHub delivers pull_request.<action> for `headSha`; waits until the app has done what it leads to. */
  async pullRequest(action: string, headSha: string, extra: Partial<PrShape> = {}): Promise<void> {
    await this.app.receive("pull_request", this.prPayload(action, headSha, extra));
    await this.idle();
  }

  /** Pushes `files` as the PR's head and opens the PR with the agent playing `steps`; returns the head. */
  async open(files: Record<string, RemoteFile>, steps: unknown[], message?: string): Promise<string> {
    const head = this.push(files, message);
    this.app.scenario(steps);
    await this.pullRequest("opened", head);
    return head;
  }

  /** Opens the PR with PR_APP as its first push and lets the first review land (`step`): one review on GitHub. */
  async openReviewed(step: unknown): Promise<string> {
    const head = await this.open({ "src/app.ts": PR_APP }, [step], "first");
    expect(this.github.reviews).toHaveLength(1);
    return head;
  }

  /** Pushes LOOP_FIXED_APP and lets its review (NM1_FIXED) land; returns the new head. */
  async pushLoopFix(before: string): Promise<string> {
    const fixed = this.push({ "src/app.ts": LOOP_FIXED_APP });
    this.app.scenario([{ role: "reviewer", answer: NM1_FIXED }]);
    await this.pullRequest("synchronize", fixed, { before });
    return fixed;
  }

  async comment(body: string, user?: { login: string; type?: "User" | "Bot" }): Promise<void> {
    await this.app.receive("issue_comment", this.commentPayload(body, user));
    await this.idle();
  }

  /** The bot's summary comment as it stands. */
  summary(): string {
    const found = this.github.issueComments.find((c) => c.body.startsWith("<!-- no-mistakes:summary -->"));
    if (!found) throw new Error("no summary comment was posted");
    return found.body;
  }

  /** The bot's replies on the PR (issue comments other than the summary). */
  replies(): string[] {
    return this.github.issueComments.map((c) => c.body).filter((b) => !b.startsWith("<!-- no-mistakes:summary -->"));
  }

  /**
   * Someone replies in a review thread: GitHub stores the comment and sends its webhook; waits until the
   * app has answered. Returns the stored reply.
   */
  async replyInThread(
    user: { login: string; id?: number; type?: string },
    threadId: number,
    body: string,
  ): Promise<StoredReviewComment> {
    const comment = this.github.humanReviewReply(user, threadId, body);
    await this.app.receive("pull_request_review_comment", this.reviewCommentPayload(comment));
    await this.idle();
    return comment;
  }

  /** A real pull_request_review_comment.created payload for a comment on this PR. */
  reviewCommentPayload(comment: StoredReviewComment): Record<string, any> {
    return reviewCommentPayload(
      { pr: this.pr, repoId: REPO_ID, fullName: `${OWNER}/${REPO}`, cloneUrl: this.remote.bare },
      comment,
    );
  }

  /**
   * The body of the one review posted on the PR, after expecting exactly one POST of a review: event
   * COMMENT on `head`, with one inline comment, on src/app.ts:11 (the new side).
   */
  onlyReview(head: string): any {
    const reviews = this.github.sent("POST", `/pulls/${this.pr}/reviews`);
    expect(reviews).toHaveLength(1);
    const review = reviews[0]!.body;
    expect(review).toMatchObject({ commit_id: head, event: "COMMENT" });
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0]).toMatchObject({ path: "src/app.ts", line: 11, side: "RIGHT" });
    return review;
  }

  /** The first review comment carrying finding `id`'s marker (the bot's inline comment for it). */
  findingComment(id: string): StoredReviewComment {
    const found = this.github.reviewComments.find((c) => c.body.includes(`<!-- no-mistakes:${id} -->`));
    if (!found) throw new Error(`no review comment carries ${id}'s marker`);
    return found;
  }

  /** The PR's run in the app's database. */
  async run(): Promise<Run> {
    const run = await findRun(this.db().db, REPO_ID, this.pr);
    if (!run) throw new Error(`no run for pull request ${this.pr}`);
    return run;
  }

  /** The run's findings (the ledger), by number. */
  async findings(): Promise<Finding[]> {
    return listFindings(this.db().db, (await this.run()).id);
  }

  /** The run's agent turns, in order. */
  async turns(): Promise<Turn[]> {
    return listTurns(this.db().db, (await this.run()).id);
  }

  private db(): DatabaseHandle {
    if (!this.database) throw new Error("the app was not started in this process: no database to read");
    return this.database;
  }

  async stop(): Promise<void> {
    await this.app?.stop();
  }
}
