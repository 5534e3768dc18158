import { join } from "node:path";
import type { DatabaseHandle } from "../../src/db/database.js";
import { startAppHarness, type AppHarness } from "./app-harness.js";
import { GitRemote, type RemoteFile } from "./git-remote.js";
import { GitHubStandIn, type StandInOptions } from "./github-stand-in.js";
import { tempDir } from "./temp-dir.js";
import { examplePayload, pullRequestPayload, type PrShape } from "./webhook-payloads.js";

export const OWNER = "octo-org";
export const REPO = "widgets";
export const REPO_ID = 4242;

/** A file of `n` lines ("<prefix> line <i>"), with some lines replaced. */
export function numbered(prefix: string, n = 30, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
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

  private constructor() {
    this.baseSha = this.remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    this.remote.publish("main");
  }

  static async start(database: DatabaseHandle, standIn: Partial<StandInOptions> = {}): Promise<FlowFixture> {
    const fixture = FlowFixture.withoutApp(standIn);
    fixture.app = await startAppHarness({ database, dataDir: join(fixture.root, "data") });
    return fixture;
  }

  /** The PR's world with the stand-in installed and no app in this process (tests that run the app as processes). */
  static withoutApp(standIn: Partial<StandInOptions> = {}): FlowFixture {
    const fixture = new FlowFixture();
    const pulls = standIn.pulls;
    fixture.github = new GitHubStandIn({
      owner: OWNER,
      repo: REPO,
      installationId: 99,
      bareRepo: fixture.remote.bare,
      baseRef: "main",
      ...standIn,
      // GitHub's answer for this PR is live: its head is what the branch holds now.
      pulls: (n) => (n === fixture.pr ? fixture.livePull() : typeof pulls === "function" ? pulls(n) : pulls?.[n]),
    });
    fixture.github.install();
    return fixture;
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

  async comment(body: string, user?: { login: string; type?: "User" | "Bot" }): Promise<void> {
    await this.app.receive("issue_comment", this.commentPayload(body, user));
    await this.app.idle();
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

  async stop(): Promise<void> {
    await this.app?.stop();
  }
}
