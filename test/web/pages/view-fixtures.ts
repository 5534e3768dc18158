import type { OperatorView } from "../../../src/web/views/operator-view.js";
import type { RepositoriesView } from "../../../src/web/views/repositories-view.js";
import type { RepositoryView } from "../../../src/web/views/repository-view.js";
import type { RunView } from "../../../src/web/views/run-view.js";

export interface FixtureOptions {
  /** Every free-text and name field's value, given the field's name. */
  text?: (field: string) => string;
  /** Every event's place on the PR's GitHub page (a pullRequestAnchor, or what a test puts there instead). */
  url?: string;
  findings?: number;
  eventsPerFinding?: number;
  turns?: number;
  /** Reproducer runs of each finding (turn 100 ran them), beside a setup and a check of turn 100. */
  executionsPerFinding?: number;
  sessionModes?: (string | null)[];
}

const AT = new Date("2026-12-04T10:00:00.000Z");
const later = (seconds: number) => new Date(AT.getTime() + seconds * 1000);

/**
 * One of each page's views, shaped like the queries fill them, with every text field set by `text`
 * (so a test can make them all hostile at once) and counts to make them as large as a test needs.
 */
export function viewFixtures({
  text = (field) => `plain ${field}`,
  url = "#discussion_r1",
  findings = 3,
  eventsPerFinding = 3,
  turns = 5,
  executionsPerFinding = 1,
  sessionModes = ["started", "resumed", "fallback", "rollover", "cold", null],
}: FixtureOptions = {}): {
  repositories: RepositoriesView;
  repository: RepositoryView;
  run: RunView;
  operator: OperatorView;
} {
  const repositories: RepositoriesView = {
    repositories: [1, 2].map((i) => ({
      repositoryId: i,
      fullName: `${text("owner")}/${text("repository")}${i}`,
      openPullRequestsWithFindings: i,
      openPullRequests: 3 * i,
      openFindings: 10 * i,
      spendWeekUsd: 0.5 * i,
      spendMonthUsd: 2.25 * i,
      lastActivityAt: later(i),
    })),
  };
  const repository: RepositoryView = {
    repositoryId: 1,
    fullName: `${text("owner")}/${text("repository")}`,
    filter: { state: "open", author: text("filter author"), page: 2 },
    pullRequests: [1, 2, 3].map((n) => ({
      number: n,
      title: text("pr title"),
      author: text("pr author"),
      state: "open",
      draft: n === 2,
      openFindings: { error: n, warning: 2 * n, info: 0 },
      headSha: "0123456789abcdef0123456789abcdef01234567",
      lastReviewedSha: n === 1 ? "0123456789abcdef0123456789abcdef01234567" : null,
      turns: n,
      spendUsd: 0.01 * n,
      updatedAt: later(n),
    })),
    total: 140,
    pageSize: 50,
    authors: [text("author a"), text("author b")],
  };
  const turnRows: RunView["turns"] = Array.from({ length: turns }, (_, i) => ({
    id: 100 + i,
    role: i % 2 ? "fixer" : "reviewer",
    trigger: text("trigger"),
    headSha: "89abcdef0123456789abcdef0123456789abcdef",
    agent: text("agent"),
    sessionMode: sessionModes[i % sessionModes.length] ?? null,
    sessionId: text("session id"),
    fallbackReason: text(`fallback reason ${i}`),
    status: i === 0 ? "failed" : "succeeded",
    startedAt: later(60 * i),
    finishedAt: later(60 * i + 42),
    tokensIn: 123_456 + i,
    tokensOut: 7_890,
    cacheReadTokens: 100_000,
    cacheWriteTokens: 2_345,
    contextTokens: 98_765,
    costUsd: 0.012345,
    error: i === 0 ? text("turn error") : null,
    executions: 0,
    executionMs: 0,
  }));
  const execution = (id: number, fields: Partial<RunView["executions"][number]>): RunView["executions"][number] => ({
    id,
    turnId: 100,
    findingNumber: null,
    headSha: "89abcdef0123456789abcdef0123456789abcdef",
    kind: "check",
    phase: "review",
    name: text("check name"),
    command: text("check command"),
    outcome: "passed",
    exitCode: 0,
    durationMs: 1_500,
    cached: false,
    outputTail: `${text("execution output")}\n\u001b[31mFAIL\u001b[0m test.js`,
    outputLength: 8_000,
    at: later(70),
    ...fields,
  });
  const executionRows: RunView["executions"] = [
    execution(1, { kind: "setup", name: "setup", command: text("setup command"), cached: true, durationMs: 0 }),
    execution(2, {}),
    ...Array.from({ length: findings * executionsPerFinding }, (_, i) => {
      const reproducer = text(`reproducer command ${i + 1}`);
      return execution(3 + i, {
        kind: "reproducer",
        findingNumber: Math.floor(i / executionsPerFinding) + 1,
        name: reproducer,
        command: reproducer,
        outcome: ["reproduced", "not-reproduced", "broken"][i % 3]!,
        exitCode: i % 3 === 2 ? null : i % 3 === 0 ? 1 : 0,
        durationMs: 2_000,
      });
    }),
    execution(3 + findings * executionsPerFinding, { turnId: null, phase: "before", outcome: "failed", exitCode: 2 }),
  ];
  if (turnRows[0]) {
    const own = executionRows.filter((e) => e.turnId === turnRows[0]!.id);
    turnRows[0] = { ...turnRows[0], executions: own.length, executionMs: own.reduce((n, e) => n + e.durationMs, 0) };
  }
  const findingRows: RunView["findings"] = Array.from({ length: findings }, (_, i) => ({
    number: i + 1,
    severity: ["error", "warning", "info"][i % 3]!,
    action: "auto-fix",
    title: text(`finding title ${i + 1}`),
    body: `${text("finding body")}\nsecond line`,
    path: text("path"),
    line: 10 + i,
    endLine: 12 + i,
    status: i % 2 ? "open" : "withdrawn",
    dismissReason: text("dismiss reason"),
    verification: "refuted",
    ruling: "withdrawn",
    rulingReason: text("ruling reason"),
    rulingBy: text("ruling by"),
    rulingConfirmation: "awaiting",
    rulingConfirmedBy: text("confirmed by"),
    rulingReplyId: 6_000 + i,
    commentId: 5_000 + i,
    reviewId: 9,
    introducedTurnId: 100,
    resolvedTurnId: null,
    events: Array.from({ length: eventsPerFinding }, (_, j) => ({
      kind: ["raised", "posted", "withdrawn"][j % 3]!,
      actor: text("event actor"),
      turnId: 100,
      detail: text(`event detail ${i + 1}.${j + 1}`),
      url,
      at: later(i + j),
    })),
    executions: executionRows.filter((e) => e.findingNumber === i + 1),
  }));
  const run: RunView = {
    run: {
      id: 1,
      repositoryId: 1,
      repositoryFullName: `${text("owner")}/${text("repository")}`,
      prNumber: 7,
      title: text("run title"),
      author: text("run author"),
      baseRef: text("base ref"),
      headRef: text("head ref"),
      headSha: "89abcdef0123456789abcdef0123456789abcdef",
      lastReviewedSha: "0123456789abcdef0123456789abcdef01234567",
      state: "open",
      draft: false,
      labels: [text("label")],
      summaryCommentId: 1,
      createdAt: AT,
      updatedAt: later(3600),
    },
    turns: turnRows,
    sessions: [
      {
        role: "reviewer",
        agent: text("agent"),
        sessionId: text("session id"),
        contextTokens: 45_678,
        overheadTokens: 12_000,
        updatedAt: later(10),
        turns: 3,
      },
    ],
    findings: findingRows,
    commands: [
      {
        id: 1,
        author: text("command author"),
        source: "issue_comment",
        commentId: 111,
        name: text("command"),
        status: "done",
        createdAt: AT,
        finishedAt: later(5),
      },
      {
        id: 2,
        author: text("command author"),
        source: "review_comment",
        commentId: 222,
        name: "reply",
        status: "pending",
        createdAt: AT,
        finishedAt: null,
      },
    ],
    executions: executionRows,
    totals: {
      executionMs: executionRows.reduce((n, e) => n + e.durationMs, 0),
      turns: turnRows.length,
      costUsd: 0.012345 * turnRows.length,
      tokensIn: 1_234_567,
      tokensOut: 89_012,
      cacheReadTokens: 617_283,
      cacheWriteTokens: 3_456,
    },
  };
  const operator: OperatorView = {
    queues: [{ name: "review", queued: 1_234, active: 2, failed: 3 }],
    workers: [{ id: "w1", host: text("host"), pid: 4242, role: "worker", startedAt: AT, beatAt: later(30), jobs: 1 }],
    failedJobs: [
      {
        id: text("job id"),
        queue: "review",
        repositoryFullName: `${text("owner")}/${text("repository")}`,
        prNumber: 7,
        failedAt: later(99),
        reason: `${text("job reason")}\n${"stack line\n".repeat(1_000)}`,
      },
    ],
    refusals: [
      {
        kind: "unauthorized_command",
        repositoryFullName: `${text("owner")}/${text("repository")}`,
        prNumber: null,
        actor: text("refused actor"),
        reason: text("refusal reason"),
        count: 1,
        at: later(5),
      },
    ],
  };
  return { repositories, repository, run, operator };
}
