import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCommand } from "../../src/pipeline/command/handle-command.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo/repo-config.js";
import { insertFindings } from "../../src/db/findings.js";
import { listRefusals } from "../../src/db/refusals.js";
import { getRun } from "../../src/db/runs.js";
import type { GitHubClient } from "../../src/github/github-client.js";
import type { PullRequestInfo } from "../../src/domain/pull-request.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { runFix } from "../../src/pipeline/fix/run-fix.js";
import { runContext } from "../../src/pipeline/job/run-context.js";
import type { PipelineDeps } from "../../src/pipeline/job/pipeline-deps.js";
import { Refusals } from "../../src/refusals/refusals.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createRun } from "../helpers/run-fixture.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { pullRequestInfo } from "../helpers/pull-request-info.js";
import { sample } from "./sample.js";

/** A GitHub client that answers only what these paths ask, and keeps the replies. */
function github(pr: Partial<PullRequestInfo>, permission = "read") {
  const replies: string[] = [];
  const client = {
    getPullRequest: async (): Promise<PullRequestInfo> =>
      pullRequestInfo({
        number: 1,
        headRepoFullName: "octo/repo",
        headCloneUrl: "https://github.com/octo/repo.git",
        ...pr,
      }),
    getPermission: async () => permission,
    createIssueComment: async (_ref: unknown, _pr: number, body: string) => {
      replies.push(body);
      return { id: replies.length };
    },
  };
  return { client: client as unknown as GitHubClient, replies };
}

describe("refusals: counted and kept in one call (pglite)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.dispose();
  });

  /** The refusals of `pr`, as the operator page lists them. */
  const rowsOf = async (pr: number) =>
    (await listRefusals(database.handle.db))
      .filter((r) => r.prNumber === pr)
      .map((r) => [r.kind, r.repositoryFullName, r.actor, r.reason, r.count]);

  it("counts a command from someone without write access as unauthorized_command, and keeps its row", async () => {
    const metrics = new Metrics({ processMetrics: false });
    const log = captureLogger().log;
    const runId = await createRun(database.handle.db);
    const run = (await getRun(database.handle.db, runId))!;
    const { client, replies } = github({ number: run.prNumber }, "read");
    const job = {
      installationId: 1,
      repositoryId: run.repositoryId,
      repositoryFullName: run.repositoryFullName,
      cloneUrl: run.cloneUrl,
      prNumber: run.prNumber,
      commentId: 9,
      author: "visitor",
      command: { kind: "pause" as const },
    };

    await handleCommand(
      {
        db: database.handle.db,
        log,
        github: async () => client,
        enqueueRun: async () => null,
        refusals: new Refusals({ db: database.handle.db, log, metrics }),
      },
      job,
    );

    expect(replies).toEqual([expect.stringContaining("needs write access")]);
    expect(sample(await metrics.text(), 'refusals_total{kind="unauthorized_command"}')).toBe(1);
    expect(await rowsOf(run.prNumber)).toEqual([
      ["unauthorized_command", run.repositoryFullName, "visitor", "pause: needs write access (permission read)", 1],
    ]);
  });

  it("counts a fix with nowhere to push (a fork without maintainer edits) as push_target, keeps its row, and no fix push", async () => {
    const metrics = new Metrics({ processMetrics: false });
    const runId = await createRun(database.handle.db);
    const run = (await getRun(database.handle.db, runId))!;
    await insertFindings(database.handle.db, runId, [
      {
        fingerprint: "f1",
        path: "a.ts",
        line: 1,
        severity: "error",
        action: "auto-fix",
        title: "Off by one",
        body: "b",
      },
    ]);
    const { client, replies } = github({
      number: run.prNumber,
      headRepoFullName: "forker/repo",
      headCloneUrl: "https://github.com/forker/repo.git",
      maintainerCanModify: false,
    });
    const log = captureLogger().log;
    const refusals = new Refusals({ db: database.handle.db, log, metrics });
    const deps = { db: database.handle.db, log, metrics, refusals } as unknown as PipelineDeps; // the paths before the workspace need no more

    await runFix(
      deps,
      runContext(database.handle.db, (await getRun(database.handle.db, runId))!, client, DEFAULT_REPO_CONFIG),
      { trigger: "command", findings: "default", requestedBy: "maintainer" },
      new AbortController().signal,
    );

    expect(replies).toEqual([expect.stringContaining("No fix was attempted")]);
    const text = await metrics.text();
    expect(sample(text, 'refusals_total{kind="push_target"}')).toBe(1);
    expect(text).not.toContain("fix_pushes_total{");
    expect(await rowsOf(run.prNumber)).toEqual([
      [
        "push_target",
        run.repositoryFullName,
        "maintainer",
        expect.stringMatching(
          /^no fix attempted: this pull request comes from a fork that does not allow edits by maintainers/,
        ),
        1,
      ],
    ]);
  });
});
