import type { GitHubClient } from "../../src/github/github-client.js";

// The shapes, as the client interface states them (where the named types live is being moved around).
type PullRequestInfo = Awaited<ReturnType<GitHubClient["getPullRequest"]>>;
type Permission = Awaited<ReturnType<GitHubClient["getPermission"]>>;
type IssueComment = Awaited<ReturnType<GitHubClient["listIssueComments"]>>[number];
export type ReviewComment = Awaited<ReturnType<GitHubClient["listPullReviewComments"]>>[number];
type CheckRunUpdate = Parameters<GitHubClient["updateCheckRun"]>[2];

export const BOT = {
  id: 4242,
  login: "no-mistakes[bot]",
  name: "no-mistakes[bot]",
  email: "4242+no-mistakes[bot]@users.noreply.github.com",
};

/** What the bot wrote, in order: a PR conversation comment, or a reply in a review thread. */
export type Post = { where: "conversation"; body: string } | { where: "thread"; inReplyTo: number; body: string };

/**
 * A GitHub that answers what the reply paths ask and keeps what the bot writes. Only the methods those
 * paths call exist; anything else throws, so a test notices when a path starts asking for more.
 */
export function fakeGitHub(options: {
  pr?: Partial<PullRequestInfo>;
  permission?: Permission;
  /** Review comments already on the PR (a finding's thread, someone's reply). */
  reviewComments?: ReviewComment[];
}) {
  const posts: Post[] = [];
  const checkRuns: CheckRunUpdate[] = [];
  const issueComments: IssueComment[] = [];
  const reviewComments: ReviewComment[] = [...(options.reviewComments ?? [])];
  let nextId = 990_000;
  // `as`: the shape gains fields while src is being restructured (updatedAt); a fixed value for each
  const pr = {
    number: 128,
    title: "Invoice totals in cents",
    body: "",
    authorLogin: "dev-dana",
    state: "open",
    draft: false,
    baseRef: "main",
    baseSha: "1111111aaaaaaabbbbbbbcccccccdddddddeeeee",
    headRef: "invoice-cents",
    headSha: "4f1c2d3e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d",
    headRepoFullName: "octo/shop",
    headCloneUrl: "https://github.com/octo/shop.git",
    maintainerCanModify: false,
    updatedAt: "2025-03-14T09:26:53Z",
    ...options.pr,
  } as PullRequestInfo;
  const client: Partial<GitHubClient> = {
    getPullRequest: async () => pr,
    getPermission: async () => options.permission ?? "write",
    botIdentity: async () => BOT,
    installationToken: async () => "ghs_fake",
    readDefaultBranchFile: async () => undefined,
    addReaction: async () => {},
    addReviewCommentReaction: async () => {},
    createIssueComment: async (_ref, _issue, body) => {
      const id = nextId++;
      posts.push({ where: "conversation", body });
      issueComments.push({ id, authorId: BOT.id, body, authorLogin: BOT.login, authorType: "Bot" });
      return id;
    },
    updateIssueComment: async (_ref, id, body) => {
      const comment = issueComments.find((c) => c.id === id);
      if (comment) comment.body = body;
    },
    listIssueComments: async () => issueComments.map((c) => ({ ...c })),
    replyToReviewComment: async (_ref, _pr, commentId, body) => {
      const id = nextId++;
      posts.push({ where: "thread", inReplyTo: commentId, body });
      reviewComments.push({
        id,
        nodeId: `PRRC_${id}`,
        authorId: BOT.id,
        body,
        path: "",
        line: null,
        inReplyToId: commentId,
      });
      return id;
    },
    listPullReviewComments: async () => reviewComments.map((c) => ({ ...c })),
    findReviewThreadId: async (_ref, _pr, nodeId) => `PRRT_${nodeId}`,
    resolveReviewThread: async () => {},
    findCheckRun: async () => 31337,
    updateCheckRun: async (_ref, _id, update) => {
      checkRuns.push(update);
    },
  };
  const github = new Proxy(client, {
    get(target, name: string) {
      if (name in target) return target[name as keyof GitHubClient];
      if (name === "then") return undefined;
      throw new Error(`fake GitHub: ${name} is not part of the reply paths`);
    },
  }) as GitHubClient;
  return { github, posts, checkRuns };
}
