import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentResult } from "../../src/agents/types.js";
import type { CommandDeps } from "../../src/pipeline/command/command-deps.js";
import { handleCommand } from "../../src/pipeline/command/handle-command.js";
import { parseCommand } from "../../src/domain/parse-command.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo/repo-config.js";
import { insertFindings, listFindings, type NewFinding } from "../../src/db/findings.js";
import { addRunCommand, listPendingCommands } from "../../src/db/run-commands.js";
import { getRun, upsertRun } from "../../src/db/runs.js";
import type { Run } from "../../src/db/schema.js";
import { GitError } from "../../src/git/git-error.js";
import type { GitWorkspace } from "../../src/git/git-workspace.js";
import { runConversation } from "../../src/pipeline/conversation/run-conversation.js";
import { answerMarker, findingMarker, SUMMARY_MARKER } from "../../src/text/labels.js";
import { runContext, type RunContext } from "../../src/pipeline/job/run-context.js";
import { runFix } from "../../src/pipeline/fix/run-fix.js";
import type { PipelineDeps } from "../../src/pipeline/job/pipeline-deps.js";
import type { RunSessions } from "../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { BOT, fakeGitHub, type Post, type ReviewComment } from "./fake-github.js";
import { BASE_SHA, FIX_SHA, HEAD_SHA, HOSTILE_BODY, LIVE_MENTION, snap, visible } from "./fixtures.js";
import { Refusals } from "../../src/refusals/refusals.js";

/**
 * Replies the bot builds inside its fix, verify, conversation and refusal paths: no pure renderer
 * exists for them, so they are reached through the smallest function that writes them (runFix,
 * runConversation, handleCommand), with the ledger in an in-memory database and fakes for GitHub, git
 * and the agent. What is snapshotted is the body as handed to GitHub.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.dispose();
});

const REPOSITORY_ID = 4242;

/** A run for PR `prNumber` of octo/shop, opened by dev-dana, at HEAD_SHA. */
async function pullRequest(prNumber: number): Promise<Run> {
  return upsertRun(database.handle.db, {
    installationId: 99,
    repositoryId: REPOSITORY_ID,
    repositoryFullName: "octo/shop",
    cloneUrl: "https://github.com/octo/shop.git",
    prNumber,
    title: "Invoice totals in cents",
    authorLogin: "dev-dana",
    baseRef: "main",
    baseSha: BASE_SHA,
    headRef: "invoice-cents",
    headSha: HEAD_SHA,
    headRepoFullName: "octo/shop",
    headCloneUrl: "https://github.com/octo/shop.git",
  });
}

function row(overrides: Partial<NewFinding> & Pick<NewFinding, "title" | "severity">): NewFinding {
  return {
    fingerprint: overrides.title,
    path: "src/billing/invoice.ts",
    line: 42,
    action: "auto-fix",
    body: "Why it is wrong and what to do.",
    ...overrides,
  };
}

/** An agent that gives these answers, in order. */
function agent(...answers: unknown[]): RunSessions {
  return {
    run: async () => {
      const json = answers.shift();
      const result: AgentResult = {
        text: JSON.stringify(json),
        json,
        resumed: false,
        usage: { tokensIn: 0, tokensOut: 0 },
      };
      return { result, mode: "started" };
    },
  } as unknown as RunSessions;
}

/** The run's git workspace: the fixer's commit is FIX_SHA on top of START_SHA; `push` decides the outcome. */
const START_SHA = "5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";
function workspace(options: { push?: () => Promise<void>; patch?: string; commits?: string[] } = {}): GitWorkspace {
  const methods: Record<string, unknown> = {
    dir: "/nonexistent/no-mistakes-workspace",
    ensure: async () => {},
    fetch: async () => {},
    revParse: async () => START_SHA,
    checkout: async () => {},
    headSha: async () => START_SHA,
    hasCommit: async () => true,
    isAncestor: async () => true,
    mergeBase: async () => BASE_SHA,
    commitAll: async (message: string) => {
      options.commits?.push(message);
      return FIX_SHA;
    },
    symlinkChanges: async () => [],
    nestedRepositories: async () => [],
    treeChanges: async () => [],
    symlinksAt: async () => new Map(),
    changedFiles: async () => [{ path: "src/billing/invoice.ts" }],
    listFiles: async () => [],
    formatPatch: async () => options.patch ?? "",
    push: options.push ?? (async () => {}),
    diff: async () => ({ text: "diff --git a/src/billing/invoice.ts b/src/billing/invoice.ts\n", leftOut: [] }),
  };
  return new Proxy(methods, {
    get(target, name: string) {
      if (name in target) return target[name];
      if (name === "then") return undefined;
      throw new Error(`fake workspace: ${name} is not part of these paths`);
    },
  }) as unknown as GitWorkspace;
}

function deps(github: ReturnType<typeof fakeGitHub>["github"], more: Partial<PipelineDeps>): PipelineDeps {
  return {
    db: database.handle.db,
    log: captureLogger().log,
    github: async () => github,
    workspace: () => workspace(),
    sessions: agent(),
    agentTimeoutMs: 60_000,
    gitToken: () => undefined,
    isOwnBot: async () => false,
    refusals: new Refusals({ db: database.handle.db, log: captureLogger().log }),
    ...more,
  };
}

function commandDeps(github: ReturnType<typeof fakeGitHub>["github"]): CommandDeps {
  return {
    db: database.handle.db,
    log: captureLogger().log,
    github: async () => github,
    enqueueRun: async () => null,
    refusals: new Refusals({ db: database.handle.db, log: captureLogger().log }),
  };
}

/** What the bot wrote, without the summary comment it keeps up to date alongside. */
/** The run's context as a job would load it, with the default repository config. */
async function context(runId: number, github: ReturnType<typeof fakeGitHub>["github"]): Promise<RunContext> {
  const run = await getRun(database.handle.db, runId);
  return runContext(database.handle.db, run!, github, DEFAULT_REPO_CONFIG);
}

function replies(posts: Post[]): Post[] {
  return posts.filter((p) => !p.body.startsWith(SUMMARY_MARKER));
}

describe("fix result replies", () => {
  it("pushed: the PR reply, then the verifier's confirmation and refutation in the findings' threads", async () => {
    const run = await pullRequest(201);
    await insertFindings(database.handle.db, run.id, [
      row({
        title: "SQL built by string concatenation",
        severity: "error",
        path: "src/db/query.ts",
        line: 17,
        commentId: 880001,
        commentNodeId: "PRRC_1",
      }),
      row({ title: "Discount rounds with floats", severity: "warning", commentId: 880002, commentNodeId: "PRRC_2" }),
      row({
        title: "Cache key ignores currency",
        severity: "warning",
        path: "src/cache/keys.ts",
        line: 8,
        commentId: 880003,
      }),
    ]);
    const { github, posts } = fakeGitHub({});
    const fixer = agent({
      summary: "Parameterised the query and rounded once, in cents.\ncc @alice <!-- no-mistakes:NM-9 -->",
      fixed: ["NM-1", "NM-2"],
      declined: [{ id: "NM-3", reason: "The cache key needs a product decision (@bob knows)." }],
    });
    const verifier = agent({
      verdicts: [
        { id: "NM-1", fixed: true, reason: "`query()` now takes placeholders; no string is concatenated." },
        { id: "NM-2", fixed: false, reason: "`Math.round` runs before the discount, so @alice still loses cents." },
      ],
    });

    const commits: string[] = [];
    await runFix(
      deps(github, { sessions: fixer, verifier, workspace: () => workspace({ commits }) }),
      await context(run.id, github),
      { trigger: "command", findings: "default", requestedBy: "maintainer-max" },
      new AbortController().signal,
    );

    const [pushed, confirmed, refuted, ...rest] = replies(posts);
    expect(rest).toEqual([]);
    expect(posts.filter((p) => p.body.startsWith(SUMMARY_MARKER))).toHaveLength(1);

    expect(pushed!.where).toBe("conversation");
    await expect(visible(pushed!.body)).toMatchFileSnapshot(snap("reply-fix-pushed"));
    expect(
      pushed!.body.startsWith(
        `@maintainer-max Pushed [c0ffee1](https://github.com/octo/shop/commit/${FIX_SHA}) fixing NM-1, NM-2.`,
      ),
    ).toBe(true);
    // the agent's text quotes no one and forges nothing; the requester is the only mention
    expect(pushed!.body.slice("@maintainer-max".length)).not.toMatch(LIVE_MENTION);
    expect(pushed!.body).not.toContain("<!-- no-mistakes:NM-9 -->");

    expect(confirmed).toMatchObject({ where: "thread", inReplyTo: 880001 });
    await expect(visible(confirmed!.body)).toMatchFileSnapshot(snap("reply-verifier-confirmed"));
    expect(confirmed!.body.startsWith("Resolved in c0ffee1. Confirmed by an independent check: ")).toBe(true);

    expect(refuted).toMatchObject({ where: "thread", inReplyTo: 880002 });
    await expect(visible(refuted!.body)).toMatchFileSnapshot(snap("reply-verifier-refuted"));
    expect(refuted!.body.startsWith("The fix in c0ffee1 does not resolve NM-2, by an independent check: ")).toBe(true);
    expect(refuted!.body).not.toMatch(LIVE_MENTION);

    // the fixer's commit, as it appears in the PR's history
    expect(commits).toHaveLength(1);
    await expect(commits[0]!).toMatchFileSnapshot("./__snapshots__/fix-commit-message.txt");
    expect(commits[0]!.split("\n")[0]).toBe("fix(no-mistakes): NM-1, NM-2 — SQL built by string concatenation");

    const ledger = await listFindings(database.handle.db, run.id);
    expect(ledger.map((f) => [f.number, f.status, f.verification])).toEqual([
      [1, "fixed", "confirmed"],
      [2, "open", "refuted"],
      [3, "open", null],
    ]);
  });

  it("refused: the push was rejected, so the change comes as a patch", async () => {
    const run = await pullRequest(202);
    await insertFindings(database.handle.db, run.id, [
      row({ title: "Discount rounds with floats", severity: "warning", commentId: 880021 }),
    ]);
    const { github, posts } = fakeGitHub({});
    const patch = [
      `From ${FIX_SHA} Mon Sep 17 00:00:00 2001`,
      "From: no-mistakes[bot] <4242+no-mistakes[bot]@users.noreply.github.com>",
      "Subject: [PATCH] fix(no-mistakes): NM-1 — Discount rounds with floats",
      "",
      "---",
      " src/billing/invoice.ts | 2 +-",
      "",
      "diff --git a/src/billing/invoice.ts b/src/billing/invoice.ts",
      "--- a/src/billing/invoice.ts",
      "+++ b/src/billing/invoice.ts",
      "@@ -42 +42 @@",
      "-  const discounted = amount * (1 - rate); // see ```docs```",
      "+  const discounted = Math.round(amountCents * (1 - rate)); // see ```docs```",
    ].join("\n");

    await runFix(
      deps(github, {
        sessions: agent({ summary: "Rounded once, in cents.", fixed: ["NM-1"] }),
        workspace: () =>
          workspace({
            patch,
            push: async () => {
              throw new GitError("rejected", "git push was rejected", {
                subcommand: "push",
                exitCode: 1,
                stderr: " ! [rejected] invoice-cents (non-fast-forward)",
              });
            },
          }),
      }),
      await context(run.id, github),
      { trigger: "command", findings: [1], requestedBy: "maintainer-max" },
      new AbortController().signal,
    );

    expect(replies(posts)).toHaveLength(1);
    const refused = posts[0]!;
    expect(refused.where).toBe("conversation");
    await expect(visible(refused.body)).toMatchFileSnapshot(snap("reply-fix-refused-patch"));
    expect(
      refused.body.startsWith(
        "@maintainer-max The fix was made but not pushed to `invoice-cents`: the branch moved or is protected",
      ),
    ).toBe(true);
    // the patch sits in a fence its own ``` cannot close, inside the closed <details>
    expect(refused.body).toContain("````diff\n");
    expect(refused.body.endsWith("\n````\n\n</details>")).toBe(true);
    expect((await listFindings(database.handle.db, run.id))[0]!.status).toBe("open");
  });

  it("not attempted: a fork that does not allow maintainer edits", async () => {
    const run = await pullRequest(203);
    await insertFindings(database.handle.db, run.id, [
      row({ title: "Discount rounds with floats", severity: "error" }),
    ]);
    const { github, posts } = fakeGitHub({
      pr: { headRepoFullName: "forker/shop", headCloneUrl: "https://github.com/forker/shop.git" },
    });

    await runFix(
      deps(github, {}),
      await context(run.id, github),
      { trigger: "command", findings: "default", requestedBy: "maintainer-max" },
      new AbortController().signal,
    );

    expect(posts).toHaveLength(1);
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-fix-not-attempted-fork"));
    expect(posts[0]!.body.startsWith("@maintainer-max No fix was attempted: this pull request comes from a fork")).toBe(
      true,
    );
  });
});

describe("command refusals", () => {
  const job = (prNumber: number, body: string, author: string) => ({
    installationId: 99,
    repositoryId: REPOSITORY_ID,
    repositoryFullName: "octo/shop",
    cloneUrl: "https://github.com/octo/shop.git",
    prNumber,
    commentId: 660100 + prNumber,
    author,
    command: parseCommand(body)!,
  });

  it("`fix` from someone without write access", async () => {
    const run = await pullRequest(210);
    const { github, posts } = fakeGitHub({ permission: "read" });
    await handleCommand(commandDeps(github), job(run.prNumber, "/no-mistakes fix all", "visitor-vic"));

    expect(posts).toHaveLength(1);
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-command-refused-non-writer"));
    expect(posts[0]!.body).toBe(
      "@visitor-vic `/no-mistakes fix` needs write access to this repository (yours: read). Anyone can use `status`, `config` and `help`.",
    );
  });

  it("`ask` from someone who is neither the PR's author nor a writer", async () => {
    const run = await pullRequest(211);
    const { github, posts } = fakeGitHub({ permission: "triage" });
    await handleCommand(commandDeps(github), job(run.prNumber, "/no-mistakes ask why cents?", "visitor-vic"));

    expect(posts).toHaveLength(1);
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-command-refused-ask"));
    expect(posts[0]!.body).toContain("(yours: triage)");
  });
});

describe("command acknowledgements to a writer", () => {
  const cases = [
    ["pause", "/no-mistakes pause", "@maintainer-max Paused: "],
    ["resume", "/no-mistakes resume", "@maintainer-max Resumed: "],
    ["reset", "/no-mistakes reset", "@maintainer-max Forgot the reviewer's and the fixer's sessions"],
    ["reset-fixer", "/no-mistakes reset fixer", "@maintainer-max Forgot the fixer's session"],
    ["dismiss", "/no-mistakes dismiss NM-1 kept for the v1 API", "@maintainer-max Dismissed NM-1;"],
    ["dismiss-unknown", "/no-mistakes dismiss NM-9", "@maintainer-max There is no finding NM-9 in this pull request."],
    ["fix-invalid-ids", "/no-mistakes fix NM-x, @alice", "@maintainer-max I could not read `NM-x`, `@"],
    // a backtick in the word must not close the code span around it and free the mention
    ["fix-backtick-ids", "/no-mistakes fix x`@alice`", "@maintainer-max I could not read `` x`@"],
    ["ask-empty", "/no-mistakes ask", "@maintainer-max Write the question after the command"],
  ] as const;

  it.each(cases)("%s", async (name, body, start) => {
    const prNumber = 230 + cases.findIndex(([n]) => n === name);
    const run = await pullRequest(prNumber);
    await insertFindings(database.handle.db, run.id, [row({ title: "Dead helper", severity: "info" })]);
    const { github, posts } = fakeGitHub({ permission: "maintain" });
    await handleCommand(commandDeps(github), {
      installationId: 99,
      repositoryId: REPOSITORY_ID,
      repositoryFullName: "octo/shop",
      cloneUrl: "https://github.com/octo/shop.git",
      prNumber,
      commentId: 660200 + prNumber,
      author: "maintainer-max",
      command: parseCommand(body)!,
    });

    const answers = replies(posts);
    expect(answers).toHaveLength(1);
    await expect(visible(answers[0]!.body)).toMatchFileSnapshot(snap(`reply-command-${name}`));
    expect(answers[0]!.body.startsWith(start)).toBe(true);
    // the only mention outside a code span is the one of who asked
    const outsideCode = answers[0]!.body.slice("@maintainer-max".length).replace(/`[^`\n]*`/g, "");
    expect(outsideCode).not.toMatch(LIVE_MENTION);
  });
});

describe("thread reply refusals", () => {
  const threadJob = (prNumber: number, threadId: number, commentId: number, author: string, body: string) => ({
    installationId: 99,
    repositoryId: REPOSITORY_ID,
    repositoryFullName: "octo/shop",
    cloneUrl: "https://github.com/octo/shop.git",
    prNumber,
    commentId,
    author,
    command: { kind: "thread-reply" as const, threadId, body, authorId: 5002, asks: body.includes("[bot]") },
  });
  const root = (threadId: number): ReviewComment => ({
    id: threadId,
    nodeId: `PRRC_${threadId}`,
    authorId: BOT.id,
    authorLogin: BOT.login,
    body: `**🔴 error · NM-1 · Retry loop never gives up**\n\nIt retries forever.\n\n${findingMarker("NM-1")}`,
    path: "src/retry.ts",
    line: 90,
  });

  it("someone without write access confirms a ruling", async () => {
    const run = await pullRequest(240);
    await insertFindings(database.handle.db, run.id, [
      row({
        title: "Retry loop never gives up",
        severity: "error",
        commentId: 880081,
        ruling: "withdrawn",
        rulingConfirmation: "awaiting",
      }),
    ]);
    const { github, posts } = fakeGitHub({ permission: "read", reviewComments: [root(880081)] });
    await handleCommand(commandDeps(github), threadJob(run.prNumber, 880081, 660081, "visitor-vic", "confirm"));

    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ where: "thread", inReplyTo: 880081 });
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-thread-refused-confirm"));
    expect(posts[0]!.body.endsWith(`\n\n${answerMarker(660081)}`)).toBe(true);
  });

  it("someone who is neither the author nor a writer asks the bot in a finding's thread", async () => {
    const run = await pullRequest(241);
    await insertFindings(database.handle.db, run.id, [
      row({ title: "Retry loop never gives up", severity: "error", commentId: 880091 }),
    ]);
    const { github, posts } = fakeGitHub({ permission: "none", reviewComments: [root(880091)] });
    await handleCommand(
      commandDeps(github),
      threadJob(run.prNumber, 880091, 660091, "visitor-vic", "@no-mistakes[bot] is this really an error?"),
    );

    expect(posts).toHaveLength(1);
    await expect(visible(posts[0]!.body)).toMatchFileSnapshot(snap("reply-thread-refused-argue"));
    expect(posts[0]!.body).toContain("can argue NM-1 (yours: none)");
  });
});

describe("thread conversation answers", () => {
  /** The bot's finding comment that starts the thread, and the person's reply being answered. */
  function thread(
    number: number,
    threadId: number,
    reply: { id: number; login: string; body: string },
  ): ReviewComment[] {
    return [
      {
        id: threadId,
        nodeId: `PRRC_${threadId}`,
        authorId: BOT.id,
        authorLogin: BOT.login,
        body: `**🔴 error · NM-${number} · Retry loop never gives up**\n\nIt retries forever.\n\n${findingMarker(`NM-${number}`)}`,
        path: "src/retry.ts",
        line: 90,
      },
      {
        id: reply.id,
        nodeId: `PRRC_${reply.id}`,
        authorId: 5001,
        authorLogin: reply.login,
        body: reply.body,
        path: "src/retry.ts",
        line: 90,
        inReplyToId: threadId,
      },
    ];
  }

  async function converse(
    prNumber: number,
    command: Parameters<typeof addRunCommand>[1]["command"],
    author: string,
    commentId: number,
    reviewComments: ReviewComment[],
    answer?: unknown,
  ) {
    const run = await pullRequest(prNumber);
    const [f] = await insertFindings(database.handle.db, run.id, [
      row({
        title: "Retry loop never gives up",
        severity: "error",
        path: "src/retry.ts",
        line: 90,
        commentId: reviewComments[0]?.id ?? null,
      }),
    ]);
    await addRunCommand(database.handle.db, {
      runId: run.id,
      commentId,
      source: "threadId" in command && command.threadId !== undefined ? "review_comment" : "issue_comment",
      author,
      command,
    });
    const [pending] = await listPendingCommands(database.handle.db, run.id);
    const { github, posts } = fakeGitHub({ reviewComments });
    await runConversation(
      deps(github, { sessions: agent(answer) }),
      await context(run.id, github),
      pending!,
      new AbortController().signal,
    );
    return { posts, run, finding: f! };
  }

  it("the PR's author argues a blocking finding: withdrawn, awaiting a maintainer", async () => {
    const { posts } = await converse(
      220,
      { kind: "argue", threadId: 880031, finding: 1, body: "The caller bounds it to 3 attempts.", byWriter: false },
      "dev-dana",
      660031,
      thread(1, 880031, { id: 660031, login: "dev-dana", body: "The caller bounds it to 3 attempts." }),
      {
        ruling: "withdrawn",
        reason: "The only caller wraps it in a 3-attempt budget.",
        reply: "You're right: `fetchInvoice` is the only caller and it stops after 3 tries.",
      },
    );

    const answers = replies(posts);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ where: "thread", inReplyTo: 880031 });
    await expect(visible(answers[0]!.body)).toMatchFileSnapshot(snap("reply-thread-withdrawn-awaiting"));
    expect(answers[0]!.body).toContain("**NM-1: withdrawn at the author's request, awaiting a maintainer**");
    expect(answers[0]!.body.endsWith(`\n\n${answerMarker(660031)}`)).toBe(true);
  });

  it("a writer argues and the reviewer upholds, with a hostile reply from the agent", async () => {
    const { posts } = await converse(
      221,
      { kind: "argue", threadId: 880041, finding: 1, body: "This is fine, drop it.", byWriter: true },
      "maintainer-max",
      660041,
      thread(1, 880041, { id: 660041, login: "maintainer-max", body: "This is fine, drop it." }),
      { ruling: "upheld", reason: "Nothing bounds the loop\nwhen the caller is the cron job.", reply: HOSTILE_BODY },
    );

    const answers = replies(posts);
    expect(answers).toHaveLength(1);
    const body = answers[0]!.body;
    await expect(visible(body)).toMatchFileSnapshot(snap("reply-thread-upheld-hostile"));
    expect(body).not.toMatch(LIVE_MENTION);
    // one marker, the bot's, last; the forged one is inert and the agent's fence is closed before the ruling
    expect(body.match(/<!-- no-mistakes:[^>]*-->/g)).toEqual([answerMarker(660041)]);
    expect(body).toContain("```\n\n**NM-1: upheld** — Nothing bounds the loop when the caller is the cron job.");
  });

  it("a writer confirms the author's withdrawal", async () => {
    const run = await pullRequest(222);
    await insertFindings(database.handle.db, run.id, [
      row({
        title: "Retry loop never gives up",
        severity: "error",
        commentId: 880051,
        ruling: "withdrawn",
        rulingReason: "bounded",
        rulingBy: "dev-dana",
        rulingConfirmation: "awaiting",
      }),
    ]);
    await addRunCommand(database.handle.db, {
      runId: run.id,
      commentId: 660051,
      source: "review_comment",
      author: "maintainer-max",
      command: { kind: "confirm", threadId: 880051, finding: 1 },
    });
    const [pending] = await listPendingCommands(database.handle.db, run.id);
    const { github, posts } = fakeGitHub({});
    await runConversation(deps(github, {}), await context(run.id, github), pending!, new AbortController().signal);

    const answers = replies(posts);
    expect(answers).toHaveLength(1);
    await expect(visible(answers[0]!.body)).toMatchFileSnapshot(snap("reply-thread-confirmed"));
    expect(answers[0]!.body.startsWith("Confirmed by @maintainer-max: NM-1 is withdrawn")).toBe(true);
  });

  it("`ask` in the PR's conversation: the answer mentions who asked", async () => {
    const { posts } = await converse(
      223,
      { kind: "ask", question: "Why integer cents rather than a decimal type?" },
      "dev-dana",
      660061,
      [],
      {
        reply:
          "Integer cents keep sums exact without a decimal library; see `src/billing/money.ts`.\n\n- additions are exact\n- rounding happens once",
      },
    );

    const answers = replies(posts);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.where).toBe("conversation");
    await expect(visible(answers[0]!.body)).toMatchFileSnapshot(snap("reply-ask-conversation"));
    // the mention on a line of its own, so an answer that opens with markdown structure renders as such
    expect(answers[0]!.body.startsWith("@dev-dana\n\nInteger cents keep sums exact")).toBe(true);
    expect(answers[0]!.body.endsWith(`\n\n${answerMarker(660061)}`)).toBe(true);
  });

  it("the reviewer's answer could not be read", async () => {
    const { posts } = await converse(
      224,
      { kind: "argue", threadId: 880071, finding: 1, body: "Is this really an error?", byWriter: true },
      "maintainer-max",
      660071,
      thread(1, 880071, { id: 660071, login: "maintainer-max", body: "Is this really an error?" }),
      { verdict: "no idea" },
    );

    const answers = replies(posts);
    expect(answers).toHaveLength(1);
    await expect(visible(answers[0]!.body)).toMatchFileSnapshot(snap("reply-thread-unreadable"));
    expect(answers[0]!.body).toContain("Nothing changed for NM-1");
  });
});
