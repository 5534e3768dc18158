import type { ProbotOctokit } from "probot";
import type {
  CheckRunUpdate,
  GitHubClient,
  InlineComment,
  IssueComment,
  Permission,
  Reaction,
  RepoRef,
  RepositoryVisibility,
  ReviewComment,
} from "./github-client.js";
import { callGitHub } from "./call-github.js";
import { fitBody } from "./fit-body.js";
import { GitHubError, toGitHubError } from "./github-error.js";
import { readPullRequest, type PullRequestInfo } from "../domain/pull-request.js";

type Octokit = InstanceType<typeof ProbotOctokit>;

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        nodes: { id: string; comments: { nodes: { id: string }[] } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    } | null;
  } | null;
}

/** GitHubClient over an installation-authenticated Octokit; every failure becomes a GitHubError. */
export class OctokitGitHubClient implements GitHubClient {
  constructor(
    private readonly octokit: Octokit,
    /** The app's slug (from GET /app), for the bot identity. */
    private readonly appSlug: () => Promise<string>,
    /** Web host for noreply emails: github.com, or the Enterprise host. */
    private readonly webHost = "github.com",
  ) {
    noBlindRetries(octokit);
  }

  #identity: Promise<{ id: number; login: string; name: string; email: string }> | undefined;

  async getPullRequest(ref: RepoRef, pr: number): Promise<PullRequestInfo> {
    const { data } = await call("get pull request", () => this.octokit.rest.pulls.get({ ...ref, pull_number: pr }));
    return readPullRequest(data);
  }

  async getPermission(ref: RepoRef, login: string): Promise<Permission> {
    try {
      const { data } = await this.octokit.rest.repos.getCollaboratorPermissionLevel({ ...ref, username: login });
      // role_name carries maintain/triage, which the legacy `permission` field folds into write/read.
      const role = (data as { role_name?: string }).role_name ?? data.permission;
      return (["admin", "maintain", "write", "triage", "read"].includes(role) ? role : data.permission) as Permission;
    } catch (error) {
      const failure = toGitHubError(error, "get permission");
      if (failure.kind === "not-found") return "none";
      throw failure;
    }
  }

  async addReaction(ref: RepoRef, commentId: number, content: "eyes" | "+1" | "confused"): Promise<void> {
    await call("add reaction", () =>
      this.octokit.rest.reactions.createForIssueComment({ ...ref, comment_id: commentId, content }),
    );
  }

  async botIdentity(): Promise<{ id: number; login: string; name: string; email: string }> {
    this.#identity ??= (async () => {
      const login = `${await this.appSlug()}[bot]`;
      const { data } = await call("get bot user", () => this.octokit.rest.users.getByUsername({ username: login }));
      const host = this.webHost === "github.com" ? "users.noreply.github.com" : `users.noreply.${this.webHost}`;
      return { id: data.id, login, name: login, email: `${data.id}+${login}@${host}` };
    })();
    return this.#identity.catch((error: unknown) => {
      this.#identity = undefined; // asked again next time
      throw error;
    });
  }

  async readDefaultBranchFile(ref: RepoRef, path: string): Promise<string | undefined> {
    return (await this.readFile(ref, path))?.text;
  }

  async getRepositoryVisibility(ref: RepoRef): Promise<RepositoryVisibility | undefined> {
    try {
      const { data } = await this.octokit.rest.repos.get({ ...ref });
      const visibility = (data as { visibility?: string }).visibility;
      if (visibility === "public" || visibility === "private" || visibility === "internal") return visibility;
      return data.private ? "private" : "public";
    } catch (error) {
      const failure = toGitHubError(error, `get repository ${ref.owner}/${ref.repo}`);
      if (failure.kind === "not-found") return undefined;
      throw failure;
    }
  }

  /** A file's text and blob sha, on `branch` or (without one) the default branch; undefined on a 404. */
  private async readFile(
    ref: RepoRef,
    path: string,
    branch?: string,
  ): Promise<{ text: string; sha: string } | undefined> {
    try {
      const { data } = await this.octokit.rest.repos.getContent({ ...ref, path, ...(branch ? { ref: branch } : {}) });
      if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return undefined;
      return { text: Buffer.from(data.content, "base64").toString("utf8"), sha: data.sha };
    } catch (error) {
      const failure = toGitHubError(error, `read ${path} in ${ref.owner}/${ref.repo}${branch ? ` on ${branch}` : ""}`);
      if (failure.kind === "not-found") return undefined;
      throw failure;
    }
  }

  async installationToken(): Promise<string> {
    const auth = (await call("installation token", () => this.octokit.auth({ type: "installation" }))) as {
      token: string;
    };
    return auth.token;
  }

  async findCheckRun(ref: RepoRef, headSha: string, name: string): Promise<number | undefined> {
    const { data } = await call("list check runs", () =>
      this.octokit.rest.checks.listForRef({ ...ref, ref: headSha, check_name: name, filter: "latest", per_page: 10 }),
    );
    return data.check_runs[0]?.id;
  }

  async createCheckRun(ref: RepoRef, headSha: string, name: string, update: CheckRunUpdate): Promise<number> {
    const { data } = await call("create check run", () =>
      this.octokit.rest.checks.create({ ...ref, head_sha: headSha, name, ...checkBody(update) }),
    );
    return data.id;
  }

  async updateCheckRun(ref: RepoRef, checkRunId: number, update: CheckRunUpdate): Promise<void> {
    await call("update check run", () =>
      this.octokit.rest.checks.update({ ...ref, check_run_id: checkRunId, ...checkBody(update) }),
    );
  }

  async createReview(
    ref: RepoRef,
    pr: number,
    review: { commitId: string; body: string; comments: InlineComment[]; pending?: boolean },
  ): Promise<{ id: number }> {
    const comments = review.comments.map((c) => ({
      path: c.path,
      line: c.line,
      side: c.side,
      ...(c.startLine !== undefined ? { start_line: c.startLine, start_side: c.side } : {}),
      body: fitBody(c.body),
    }));
    const { data } = await call("create review", () =>
      this.octokit.rest.pulls.createReview({
        ...ref,
        pull_number: pr,
        commit_id: review.commitId,
        ...(review.pending ? {} : { event: "COMMENT" as const }),
        body: fitBody(review.body),
        comments,
      }),
    );
    return { id: data.id };
  }

  async deletePendingReview(ref: RepoRef, pr: number, reviewId: number): Promise<void> {
    await call("delete pending review", () =>
      this.octokit.rest.pulls.deletePendingReview({ ...ref, pull_number: pr, review_id: reviewId }),
    );
  }

  async listReviews(
    ref: RepoRef,
    pr: number,
  ): Promise<{ id: number; authorId: number; body: string; commitId: string; state: string }[]> {
    const data = await call("list reviews", () =>
      this.octokit.paginate(this.octokit.rest.pulls.listReviews, { ...ref, pull_number: pr, per_page: 100 }),
    );
    return data.map((r) => ({
      id: r.id,
      authorId: r.user?.id ?? 0,
      body: r.body ?? "",
      commitId: r.commit_id ?? "",
      state: r.state,
    }));
  }

  async listPullReviewComments(ref: RepoRef, pr: number): Promise<ReviewComment[]> {
    const data = await call("list pull review comments", () =>
      this.octokit.paginate(this.octokit.rest.pulls.listReviewComments, { ...ref, pull_number: pr, per_page: 100 }),
    );
    return data.map(toReviewComment);
  }

  async listReviewComments(ref: RepoRef, pr: number, reviewId: number): Promise<ReviewComment[]> {
    const data = await call("list review comments", () =>
      this.octokit.paginate(this.octokit.rest.pulls.listCommentsForReview, {
        ...ref,
        pull_number: pr,
        review_id: reviewId,
        per_page: 100,
      }),
    );
    return data.map(toReviewComment);
  }

  async replyToReviewComment(ref: RepoRef, pr: number, commentId: number, body: string): Promise<number> {
    const { data } = await call("reply to review comment", () =>
      this.octokit.rest.pulls.createReplyForReviewComment({
        ...ref,
        pull_number: pr,
        comment_id: commentId,
        body: fitBody(body),
      }),
    );
    return data.id;
  }

  async addReviewCommentReaction(ref: RepoRef, commentId: number, content: "eyes" | "+1" | "confused"): Promise<void> {
    await call("add review comment reaction", () =>
      this.octokit.rest.reactions.createForPullRequestReviewComment({ ...ref, comment_id: commentId, content }),
    );
  }

  async listReviewCommentReactions(ref: RepoRef, commentId: number): Promise<Reaction[]> {
    const data = await call("list review comment reactions", () =>
      this.octokit.paginate(this.octokit.rest.reactions.listForPullRequestReviewComment, {
        ...ref,
        comment_id: commentId,
        per_page: 100,
      }),
    );
    return data.map((r) => ({
      content: r.content,
      userId: r.user?.id ?? 0,
      login: r.user?.login ?? "",
      userType: r.user?.type ?? "",
    }));
  }

  async findReviewThreadId(ref: RepoRef, pr: number, commentNodeId: string): Promise<string | undefined> {
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++) {
      const result: ThreadsPage = await call("list review threads", () =>
        this.octokit.graphql<ThreadsPage>(
          `query($owner: String!, $repo: String!, $pr: Int!, $cursor: String) {
            repository(owner: $owner, name: $repo) {
              pullRequest(number: $pr) {
                reviewThreads(first: 100, after: $cursor) {
                  nodes { id comments(first: 1) { nodes { id } } }
                  pageInfo { hasNextPage endCursor }
                }
              }
            }
          }`,
          { owner: ref.owner, repo: ref.repo, pr, cursor },
        ),
      );
      const threads = result.repository?.pullRequest?.reviewThreads;
      if (!threads) return undefined;
      const match = threads.nodes.find((t) => t.comments.nodes[0]?.id === commentNodeId);
      if (match) return match.id;
      if (!threads.pageInfo.hasNextPage) return undefined;
      cursor = threads.pageInfo.endCursor;
    }
    return undefined;
  }

  async resolveReviewThread(threadId: string): Promise<void> {
    await call("resolve review thread", () =>
      this.octokit.graphql(`mutation($id: ID!) { resolveReviewThread(input: { threadId: $id }) { thread { id } } }`, {
        id: threadId,
      }),
    );
  }

  async listIssueComments(ref: RepoRef, issue: number): Promise<IssueComment[]> {
    const data = await call("list issue comments", () =>
      this.octokit.paginate(this.octokit.rest.issues.listComments, { ...ref, issue_number: issue, per_page: 100 }),
    );
    return data.map((c) => ({
      id: c.id,
      authorId: c.user?.id ?? 0,
      body: c.body ?? "",
      authorLogin: c.user?.login ?? "",
      authorType: c.user?.type ?? "",
    }));
  }

  async createIssueComment(ref: RepoRef, issue: number, body: string): Promise<number> {
    const { data } = await call("create comment", () =>
      this.octokit.rest.issues.createComment({ ...ref, issue_number: issue, body: fitBody(body) }),
    );
    return data.id;
  }

  async updateIssueComment(ref: RepoRef, commentId: number, body: string): Promise<void> {
    await call("update comment", () =>
      this.octokit.rest.issues.updateComment({ ...ref, comment_id: commentId, body: fitBody(body) }),
    );
  }

  // learnings (issue 28)
  async getDefaultBranch(ref: RepoRef): Promise<{ name: string; sha: string; htmlUrl: string }> {
    const { data } = await call("get repository", () => this.octokit.rest.repos.get({ ...ref }));
    const sha = await this.getBranchSha(ref, data.default_branch);
    if (!sha) throw new GitHubError("not-found", 404, `get default branch: ${data.default_branch} has no ref`);
    return { name: data.default_branch, sha, htmlUrl: data.html_url };
  }

  async getBranchSha(ref: RepoRef, branch: string): Promise<string | undefined> {
    try {
      const { data } = await this.octokit.rest.git.getRef({ ...ref, ref: `heads/${branch}` });
      return data.object.sha;
    } catch (error) {
      const failure = toGitHubError(error, `get branch ${branch}`);
      if (failure.kind === "not-found") return undefined;
      throw failure;
    }
  }

  async readBranchFile(ref: RepoRef, branch: string, path: string): Promise<{ text: string; sha: string } | undefined> {
    return this.readFile(ref, path, branch);
  }

  async createBranch(ref: RepoRef, branch: string, sha: string): Promise<void> {
    await call(`create branch ${branch}`, () =>
      this.octokit.rest.git.createRef({ ...ref, ref: `refs/heads/${branch}`, sha }),
    );
  }

  async moveBranch(ref: RepoRef, branch: string, sha: string): Promise<void> {
    await call(`move branch ${branch}`, () =>
      this.octokit.rest.git.updateRef({ ...ref, ref: `heads/${branch}`, sha, force: true }),
    );
  }

  async putBranchFile(
    ref: RepoRef,
    change: { branch: string; path: string; text: string; message: string; blobSha?: string },
  ): Promise<string> {
    const { data } = await call(`write ${change.path} on ${change.branch}`, () =>
      this.octokit.rest.repos.createOrUpdateFileContents({
        ...ref,
        path: change.path,
        branch: change.branch,
        message: change.message,
        content: Buffer.from(change.text, "utf8").toString("base64"),
        ...(change.blobSha ? { sha: change.blobSha } : {}),
      }),
    );
    return data.commit.sha ?? "";
  }

  async findOpenPullByHead(ref: RepoRef, branch: string): Promise<{ number: number; htmlUrl: string } | undefined> {
    const { data } = await call("find pull request by head", () =>
      this.octokit.rest.pulls.list({ ...ref, head: `${ref.owner}:${branch}`, state: "open", per_page: 10 }),
    );
    const pull = data.find((p) => p.head.ref === branch && p.state === "open");
    return pull ? { number: pull.number, htmlUrl: pull.html_url } : undefined;
  }

  async createPullRequest(
    ref: RepoRef,
    pull: { head: string; base: string; title: string; body: string },
  ): Promise<{ number: number; htmlUrl: string }> {
    const { data } = await call("create pull request", () =>
      this.octokit.rest.pulls.create({ ...ref, ...pull, body: fitBody(pull.body) }),
    );
    return { number: data.number, htmlUrl: data.html_url };
  }

  async updatePullRequestBody(ref: RepoRef, pr: number, body: string): Promise<void> {
    await call("update pull request", () =>
      this.octokit.rest.pulls.update({ ...ref, pull_number: pr, body: fitBody(body) }),
    );
  }
}

/**
 * POSTs that create something GitHub does not deduplicate. When such a request's answer is lost (a
 * 502, a reset connection) it may well have landed, so the HTTP layer must not send it again blindly
 * (@octokit/plugin-retry would, up to 3 times): the caller checks by its own markers and tries once
 * more only when nothing landed (see writeOnce).
 */
export const CREATING_ROUTES: ReadonlySet<string> = new Set([
  "/repos/{owner}/{repo}/pulls/{pull_number}/reviews",
  "/repos/{owner}/{repo}/issues/{issue_number}/comments",
  "/repos/{owner}/{repo}/pulls/{pull_number}/comments",
  "/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
  "/repos/{owner}/{repo}/check-runs",
  "/repos/{owner}/{repo}/pulls",
]);

const unretried = new WeakSet<object>();

/** Sets `request.retries = 0` on creating POSTs: plugin-retry (8.x) reads `options.request.retries` before its default. */
export function noBlindRetries(octokit: Octokit): void {
  if (unretried.has(octokit)) return;
  unretried.add(octokit);
  octokit.hook.before("request", (options) => {
    if (options.method !== "POST" || typeof options.url !== "string" || !CREATING_ROUTES.has(options.url)) return;
    options.request = { ...options.request, retries: 0 } as typeof options.request;
  });
}

function toReviewComment(c: {
  id: number;
  node_id: string;
  body: string;
  path: string;
  in_reply_to_id?: number;
  user?: { id: number; login?: string; type?: string } | null;
}): ReviewComment {
  return {
    authorLogin: c.user?.login,
    authorType: c.user?.type,
    id: c.id,
    nodeId: c.node_id,
    authorId: c.user?.id ?? 0,
    body: c.body,
    path: c.path,
    line: (c as { line?: number | null }).line ?? null,
    inReplyToId: c.in_reply_to_id ?? undefined,
  };
}

function checkBody(update: CheckRunUpdate) {
  const output =
    update.title !== undefined && update.summary !== undefined
      ? {
          output: {
            title: update.title,
            summary: truncate(update.summary, 65_000),
            ...(update.text ? { text: truncate(update.text, 65_000) } : {}),
          },
        }
      : {};
  return {
    ...(update.status ? { status: update.status } : {}),
    ...(update.conclusion ? { conclusion: update.conclusion, completed_at: new Date().toISOString() } : {}),
    ...(update.detailsUrl ? { details_url: update.detailsUrl } : {}),
    ...output,
  };
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 40)}\n\n… (truncated)`;
}

/** A request whose failure becomes a GitHubError (a secondary rate limit is waited out once: see callGitHub). */
function call<T>(action: string, fn: () => Promise<T>): Promise<T> {
  return callGitHub(action, fn);
}
