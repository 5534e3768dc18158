import type { PullRequestInfo } from "../domain/pull-request.js";
import type { RepoRef } from "../domain/repo-ref.js";
/** What the pipeline needs from GitHub, in our own types. Implementations classify errors as GitHubError. */

export type { RepoRef };

export interface InlineComment {
  path: string;
  line: number;
  startLine?: number;
  side: "RIGHT";
  body: string;
}

export interface ReviewComment {
  id: number;
  nodeId: string;
  /** The author's user id: the bot trusts its markers only on comments its own bot user wrote. */
  authorId: number;
  body: string;
  path: string;
  line: number | null;
  inReplyToId?: number;
  /** The author's login and account type (User, Bot), when GitHub gave them. */
  authorLogin?: string;
  authorType?: string;
}

/** A reaction on a comment, with who left it. */
export interface Reaction {
  content: string;
  userId: number;
  login: string;
  userType: string;
}

export interface IssueComment {
  id: number;
  /** The author's user id (see ReviewComment.authorId). */
  authorId: number;
  body: string;
  authorLogin: string;
  authorType: string;
}

export type CheckConclusion =
  "success" | "failure" | "neutral" | "cancelled" | "skipped" | "timed_out" | "action_required";

export interface CheckRunUpdate {
  status?: "queued" | "in_progress" | "completed";
  conclusion?: CheckConclusion;
  title?: string;
  summary?: string;
  text?: string;
  detailsUrl?: string;
}

export type RepositoryVisibility = "public" | "private" | "internal";

/** Repository permission of a user: admin, maintain, write, triage, read or none. */
export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

export interface GitHubClient {
  getPullRequest(ref: RepoRef, pr: number): Promise<PullRequestInfo>;
  getPermission(ref: RepoRef, login: string): Promise<Permission>;
  addReaction(ref: RepoRef, commentId: number, content: "eyes" | "+1" | "confused"): Promise<void>;
  /** The bot account: `<slug>[bot]`, its user id (what proves a comment is ours) and its noreply email. */
  botIdentity(): Promise<{ id: number; login: string; name: string; email: string }>;
  /**
   * A file's text on a repository's default branch (this one's, the owner's `.github`, an `_extends`
   * base), read with the installation's token; undefined when the file or the repository is not there
   * (or not readable: 404).
   */
  readDefaultBranchFile(ref: RepoRef, path: string): Promise<string | undefined>;
  /**
   * Who may read a repository, as GitHub says (`visibility`, else `private`): public, private or internal;
   * undefined when GitHub shows the app no such repository (404).
   */
  getRepositoryVisibility(ref: RepoRef): Promise<RepositoryVisibility | undefined>;
  /** A short-lived installation token, for git's command line only. */
  installationToken(): Promise<string>;
  /** The check run named `name` on a commit, newest first, if any. */
  findCheckRun(ref: RepoRef, headSha: string, name: string): Promise<number | undefined>;
  createCheckRun(ref: RepoRef, headSha: string, name: string, update: CheckRunUpdate): Promise<number>;
  updateCheckRun(ref: RepoRef, checkRunId: number, update: CheckRunUpdate): Promise<void>;
  /**
   * One review (event COMMENT) with inline comments; a 422 throws GitHubError kind `unprocessable`.
   * `pending`: no event, so the review stays PENDING — visible to nobody but its author — which is how
   * the bot learns which comment GitHub refuses without posting anything (then it deletes it).
   */
  createReview(
    ref: RepoRef,
    pr: number,
    review: { commitId: string; body: string; comments: InlineComment[]; pending?: boolean },
  ): Promise<{ id: number }>;
  /** Deletes a PENDING review (GitHub allows it for pending reviews only). */
  deletePendingReview(ref: RepoRef, pr: number, reviewId: number): Promise<void>;
  /** The PR's reviews (bodies), to recognise one an earlier attempt already posted. */
  listReviews(
    ref: RepoRef,
    pr: number,
  ): Promise<{ id: number; authorId: number; body: string; commitId: string; state: string }[]>;
  /** Every review comment on the PR (to find what an earlier attempt already posted). */
  listPullReviewComments(ref: RepoRef, pr: number): Promise<ReviewComment[]>;
  /** The review's inline comments (to learn their ids after posting). */
  listReviewComments(ref: RepoRef, pr: number, reviewId: number): Promise<ReviewComment[]>;
  /** A reply in the review thread of `commentId` (its first comment); returns the reply's id. */
  replyToReviewComment(ref: RepoRef, pr: number, commentId: number, body: string): Promise<number>;
  addReviewCommentReaction(ref: RepoRef, commentId: number, content: "eyes" | "+1" | "confused"): Promise<void>;
  /** The reactions on a review comment (a writer's 👍 on a ruling confirms it). */
  listReviewCommentReactions(ref: RepoRef, commentId: number): Promise<Reaction[]>;
  /** The GraphQL id of the review thread holding a comment, if found. */
  findReviewThreadId(ref: RepoRef, pr: number, commentNodeId: string): Promise<string | undefined>;
  resolveReviewThread(threadId: string): Promise<void>;
  listIssueComments(ref: RepoRef, issue: number): Promise<IssueComment[]>;
  createIssueComment(ref: RepoRef, issue: number, body: string): Promise<number>;
  updateIssueComment(ref: RepoRef, commentId: number, body: string): Promise<void>;

  // learnings (issue 28)
  /** The default branch (its name and head commit) and the repository's web address (github.com or the Enterprise host's). */
  getDefaultBranch(ref: RepoRef): Promise<{ name: string; sha: string; htmlUrl: string }>;
  /** A branch's head commit; undefined when there is no such branch. */
  getBranchSha(ref: RepoRef, branch: string): Promise<string | undefined>;
  /** A file's text and blob sha on a branch; undefined when it does not exist there. */
  readBranchFile(ref: RepoRef, branch: string, path: string): Promise<{ text: string; sha: string } | undefined>;
  /** Creates the branch at `sha`. */
  createBranch(ref: RepoRef, branch: string, sha: string): Promise<void>;
  /** Moves the branch to `sha`, also when `sha` does not descend from its head. */
  moveBranch(ref: RepoRef, branch: string, sha: string): Promise<void>;
  /**
   * Writes one file on a branch through the contents API (a commit of its own); `blobSha` is the file's
   * current blob on that branch when it exists. Returns the new commit's sha.
   */
  putBranchFile(
    ref: RepoRef,
    change: { branch: string; path: string; text: string; message: string; blobSha?: string },
  ): Promise<string>;
  /** The open pull request whose head is `branch` of this repository, if any. */
  findOpenPullByHead(ref: RepoRef, branch: string): Promise<{ number: number; htmlUrl: string } | undefined>;
  createPullRequest(
    ref: RepoRef,
    pull: { head: string; base: string; title: string; body: string },
  ): Promise<{ number: number; htmlUrl: string }>;
  updatePullRequestBody(ref: RepoRef, pr: number, body: string): Promise<void>;
}
