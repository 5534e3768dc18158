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
} from "../../github/github-client.js";
import type { PullRequestInfo } from "../../domain/pull-request.js";

/** The bot's identity in a backtest: what its markers are trusted on. */
const BOT = { id: 41_000_001, login: "no-mistakes-backtest[bot]", name: "no-mistakes-backtest[bot]" };

/** One review as it would have been posted: its body and inline comments (with the ids the recorder gave them). */
export interface RecordedReview {
  id: number;
  commitId: string;
  body: string;
  comments: (InlineComment & { id: number })[];
}

/** A check run as the pipeline left it. */
export interface RecordedCheckRun {
  id: number;
  headSha: string;
  name: string;
  update: CheckRunUpdate;
}

/**
 * GitHub as a backtest sees it: what the pipeline would post (reviews, inline comments, replies, check
 * runs, the summary) is kept in memory, never sent. The pull request is the one the backtest stages, and
 * a repository file is read from `readFile` (the local clone's default branch, or a config given instead).
 * Placement is the pipeline's own: it decides which findings go inline before it posts, and the recorder
 * keeps exactly what it was asked to post.
 */
export class RecordingGitHubClient implements GitHubClient {
  readonly reviews: RecordedReview[] = [];
  readonly checkRuns: RecordedCheckRun[] = [];
  readonly issueComments: { id: number; body: string }[] = [];
  readonly replies: { inReplyTo: number; body: string }[] = [];
  #nextId = 1;

  constructor(
    private readonly repo: RepoRef,
    /** The pull request as it stands now (its head moves with each replayed push). */
    private readonly pull: () => PullRequestInfo,
    /** A file's text on the repository's default branch; undefined when it is not there. */
    private readonly readFile: (path: string) => Promise<string | undefined>,
  ) {}

  async getPullRequest(_ref: RepoRef, _pr: number): Promise<PullRequestInfo> {
    return this.pull();
  }

  async getPermission(_ref: RepoRef, _login: string): Promise<Permission> {
    return "read";
  }

  async addReaction(): Promise<void> {}

  async botIdentity(): Promise<{ id: number; login: string; name: string; email: string }> {
    return { ...BOT, email: `${BOT.id}+${BOT.login}@users.noreply.github.com` };
  }

  async readDefaultBranchFile(ref: RepoRef, path: string): Promise<string | undefined> {
    if (ref.owner !== this.repo.owner || ref.repo !== this.repo.repo) return undefined; // no other repository here
    return this.readFile(path);
  }

  /** Unknown here: the backtest posts nothing, and a config it cannot place is treated as private. */
  async getRepositoryVisibility(): Promise<RepositoryVisibility | undefined> {
    return undefined;
  }

  async installationToken(): Promise<string> {
    return "";
  }

  async findCheckRun(_ref: RepoRef, headSha: string, name: string): Promise<number | undefined> {
    return this.checkRuns.findLast((c) => c.headSha === headSha && c.name === name)?.id;
  }

  async createCheckRun(_ref: RepoRef, headSha: string, name: string, update: CheckRunUpdate): Promise<number> {
    const id = this.#id();
    this.checkRuns.push({ id, headSha, name, update: { ...update } });
    return id;
  }

  async updateCheckRun(_ref: RepoRef, checkRunId: number, update: CheckRunUpdate): Promise<void> {
    const run = this.checkRuns.find((c) => c.id === checkRunId);
    if (run) run.update = { ...run.update, ...update };
  }

  async createReview(
    _ref: RepoRef,
    _pr: number,
    review: { commitId: string; body: string; comments: InlineComment[]; pending?: boolean },
  ): Promise<{ id: number }> {
    const id = this.#id();
    // A pending review is GitHub's way of asking whether a comment would be taken; nothing is kept.
    if (!review.pending)
      this.reviews.push({
        id,
        commitId: review.commitId,
        body: review.body,
        comments: review.comments.map((c) => ({ ...c, id: this.#id() })),
      });
    return { id };
  }

  async deletePendingReview(): Promise<void> {}

  async listReviews(): Promise<{ id: number; authorId: number; body: string; commitId: string; state: string }[]> {
    return this.reviews.map((r) => ({
      id: r.id,
      authorId: BOT.id,
      body: r.body,
      commitId: r.commitId,
      state: "COMMENTED",
    }));
  }

  async listPullReviewComments(): Promise<ReviewComment[]> {
    return this.reviews.flatMap((r) => r.comments.map(reviewComment));
  }

  async listReviewComments(_ref: RepoRef, _pr: number, reviewId: number): Promise<ReviewComment[]> {
    return (this.reviews.find((r) => r.id === reviewId)?.comments ?? []).map(reviewComment);
  }

  async replyToReviewComment(_ref: RepoRef, _pr: number, commentId: number, body: string): Promise<number> {
    this.replies.push({ inReplyTo: commentId, body });
    return this.#id();
  }

  async addReviewCommentReaction(): Promise<void> {}

  async listReviewCommentReactions(): Promise<Reaction[]> {
    return [];
  }

  async findReviewThreadId(_ref: RepoRef, _pr: number, commentNodeId: string): Promise<string | undefined> {
    return `thread-${commentNodeId}`;
  }

  async resolveReviewThread(): Promise<void> {}

  async listIssueComments(): Promise<IssueComment[]> {
    return this.issueComments.map((c) => ({ ...c, authorId: BOT.id, authorLogin: BOT.login, authorType: "Bot" }));
  }

  async createIssueComment(_ref: RepoRef, _issue: number, body: string): Promise<number> {
    const id = this.#id();
    this.issueComments.push({ id, body });
    return id;
  }

  async updateIssueComment(_ref: RepoRef, commentId: number, body: string): Promise<void> {
    const comment = this.issueComments.find((c) => c.id === commentId);
    if (comment) comment.body = body;
  }

  // A backtest reviews; it proposes no learnings and opens no pull requests.
  getDefaultBranch(): Promise<{ name: string; sha: string; htmlUrl: string }> {
    return notInBacktest("read the default branch");
  }
  getBranchSha(): Promise<string | undefined> {
    return notInBacktest("read a branch");
  }
  readBranchFile(): Promise<{ text: string; sha: string } | undefined> {
    return notInBacktest("read a branch file");
  }
  createBranch(): Promise<void> {
    return notInBacktest("create a branch");
  }
  moveBranch(): Promise<void> {
    return notInBacktest("move a branch");
  }
  putBranchFile(): Promise<string> {
    return notInBacktest("write a file");
  }
  findOpenPullByHead(): Promise<{ number: number; htmlUrl: string } | undefined> {
    return notInBacktest("find a pull request");
  }
  createPullRequest(): Promise<{ number: number; htmlUrl: string }> {
    return notInBacktest("open a pull request");
  }
  updatePullRequestBody(): Promise<void> {
    return notInBacktest("edit a pull request");
  }

  #id(): number {
    return this.#nextId++;
  }
}

function reviewComment(c: InlineComment & { id: number }): ReviewComment {
  return {
    id: c.id,
    nodeId: `comment-${c.id}`,
    authorId: BOT.id,
    authorLogin: BOT.login,
    authorType: "Bot",
    body: c.body,
    path: c.path,
    line: c.line,
  };
}

async function notInBacktest(what: string): Promise<never> {
  throw new Error(`a backtest does not ${what} on GitHub`);
}
