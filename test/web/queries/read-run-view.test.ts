import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTPUT_SHOWN, readRunView } from "../../../src/web/queries/read-run-view.js";
import {
  seedCommands,
  seedEvents,
  seedExecutions,
  seedFindings,
  seedRuns,
  seedSession,
  seedTurns,
} from "../../helpers/run-view-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";

const kinds = await databaseKinds();
const at = (minute: number) => new Date(Date.UTC(2026, 10, 2, 9, minute));

describe.each(kinds)("readRunView on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("reads a PR's run: turns in order, sessions with their turn counts, findings with their events in order, commands, totals", async () => {
    const db = database.handle.db;
    const [runId, otherRunId] = await seedRuns(db, [
      {
        repositoryId: 10,
        fullName: "octo/widgets",
        prNumber: 7,
        title: "Faster loop",
        author: "Coder",
        lastReviewedSha: "c".repeat(40),
        updatedAt: at(30),
      },
      // the same PR number in another repository is another run
      { repositoryId: 11, fullName: "octo/other", prNumber: 7 },
    ]);
    const [t1, t2, t3] = await seedTurns(db, runId!, [
      {
        role: "reviewer",
        trigger: "opened",
        sessionMode: "started",
        sessionId: "s1",
        startedAt: at(1),
        finishedAt: at(2),
        tokensIn: 1000,
        tokensOut: 100,
        cacheReadTokens: 0,
        cacheWriteTokens: 900,
        contextTokens: 1000,
        costUsd: 0.012345,
      },
      {
        role: "reviewer",
        trigger: "synchronize",
        sessionMode: "resumed",
        sessionId: "s1",
        startedAt: at(10),
        finishedAt: at(11),
        tokensIn: 1500,
        tokensOut: 50,
        cacheReadTokens: 1200,
        cacheWriteTokens: 100,
        contextTokens: 1500,
        costUsd: 0.002,
      },
      {
        role: "fixer",
        trigger: "command",
        sessionMode: null,
        sessionId: null,
        status: "failed",
        error: "the fixer stopped",
        startedAt: at(20),
        tokensIn: 10,
        costUsd: 0.1,
      },
    ]);
    await seedTurns(db, otherRunId!, [{ startedAt: at(5), costUsd: 5 }]);
    await seedSession(db, {
      runId: runId!,
      role: "reviewer",
      sessionId: "s1",
      contextTokens: 1500,
      overheadTokens: 300,
    });
    await seedSession(db, { runId: runId!, role: "fixer", sessionId: "f9", contextTokens: 0 });
    await seedFindings(db, runId!, [
      { number: 2, severity: "info", status: "dismissed", dismissReason: "intended", introducedTurnId: t1 },
      {
        number: 1,
        severity: "error",
        status: "fixed",
        commentId: 555,
        reviewId: 44,
        introducedTurnId: t1,
        resolvedTurnId: t2,
        verification: "confirmed",
      },
      { number: 3, severity: "warning", status: "open", introducedTurnId: t2 },
    ]);
    await seedFindings(db, otherRunId!, [{ number: 1 }]);
    // written interleaved, as the pipeline would
    await seedEvents(db, runId!, [
      { findingNumber: 1, kind: "raised", actor: "reviewer", turnId: t1 },
      { findingNumber: 2, kind: "raised", actor: "reviewer", turnId: t1 },
      {
        findingNumber: 2,
        kind: "dismissed",
        actor: "maintainer",
        detail: "intended",
        url: "#issuecomment-9",
      },
      { findingNumber: 1, kind: "fix-pushed", actor: "fixer", detail: "d".repeat(40) },
      { findingNumber: 1, kind: "confirmed", actor: "verifier", turnId: t3, detail: "the bound is right" },
    ]);
    await seedEvents(db, otherRunId!, [{ findingNumber: 1, kind: "raised" }]);
    await seedCommands(db, runId!, [
      {
        commentId: 900,
        author: "maintainer",
        command: { kind: "fix", findings: "all" },
        status: "done",
        finishedAt: at(21),
      },
      {
        commentId: 901,
        source: "review_comment",
        author: "Coder",
        command: { kind: "argue", threadId: 555, finding: 1 },
      },
    ]);

    const view = await readRunView(db, 10, 7);

    expect(view!.run).toMatchObject({
      id: runId,
      repositoryId: 10,
      repositoryFullName: "octo/widgets",
      prNumber: 7,
      title: "Faster loop",
      author: "Coder",
      lastReviewedSha: "c".repeat(40),
      state: "open",
      draft: false,
      labels: [],
      summaryCommentId: null,
      updatedAt: at(30),
    });
    expect(view!.turns.map((t) => [t.id, t.role, t.sessionMode, t.sessionId, t.status, t.costUsd, t.error])).toEqual([
      [t1, "reviewer", "started", "s1", "succeeded", 0.012345, null],
      [t2, "reviewer", "resumed", "s1", "succeeded", 0.002, null],
      [t3, "fixer", null, null, "failed", 0.1, "the fixer stopped"],
    ]);
    expect(view!.turns[1]).toMatchObject({
      tokensIn: 1500,
      tokensOut: 50,
      cacheReadTokens: 1200,
      cacheWriteTokens: 100,
      contextTokens: 1500,
      startedAt: at(10),
      finishedAt: at(11),
    });
    expect(view!.turns[1]).not.toHaveProperty("rawAnswer");
    expect(view!.sessions.map((s) => [s.role, s.sessionId, s.contextTokens, s.overheadTokens, s.turns])).toEqual([
      ["fixer", "f9", 0, 0, 0],
      ["reviewer", "s1", 1500, 300, 2],
    ]);
    expect(
      view!.findings.map((f) => [f.number, f.severity, f.status, f.commentId, f.reviewId, f.resolvedTurnId]),
    ).toEqual([
      [1, "error", "fixed", 555, 44, t2],
      [2, "info", "dismissed", null, null, null],
      [3, "warning", "open", null, null, null],
    ]);
    expect(view!.findings[0]!.events.map((e) => [e.kind, e.actor, e.turnId, e.detail])).toEqual([
      ["raised", "reviewer", t1, null],
      ["fix-pushed", "fixer", null, "d".repeat(40)],
      ["confirmed", "verifier", t3, "the bound is right"],
    ]);
    expect(view!.findings[1]!.events.map((e) => [e.kind, e.actor, e.url])).toEqual([
      ["raised", "reviewer", null],
      ["dismissed", "maintainer", "#issuecomment-9"],
    ]);
    expect(view!.findings[2]!.events).toEqual([]);
    expect(view!.findings[0]!.events[0]!.at).toBeInstanceOf(Date);
    expect(view!.commands.map((c) => [c.commentId, c.source, c.author, c.name, c.status, c.finishedAt])).toEqual([
      [900, "issue_comment", "maintainer", "fix", "done", at(21)],
      [901, "review_comment", "Coder", "argue", "pending", null],
    ]);
    expect(view!.totals).toEqual({
      turns: 3,
      costUsd: 0.114345,
      tokensIn: 2510,
      tokensOut: 150,
      cacheReadTokens: 1200,
      cacheWriteTokens: 1000,
      executionMs: 0,
    });
    expect(view!.executions).toEqual([]);
    expect(view!.turns.map((t) => [t.executions, t.executionMs])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);

    const other = await readRunView(db, 11, 7);
    expect(other!.run.id).toBe(otherRunId);
    expect(other!.findings.map((f) => f.events.length)).toEqual([1]);
    expect(other!.totals.costUsd).toBe(5);
  });

  it("reads the run's executions: under each finding its reproducer's runs, per turn their count and time, the output's end only", async () => {
    const db = database.handle.db;
    const [runId, otherRunId] = await seedRuns(db, [
      { repositoryId: 30, fullName: "octo/checks", prNumber: 3 },
      { repositoryId: 30, fullName: "octo/checks", prNumber: 4 },
    ]);
    const [review, fix] = await seedTurns(db, runId!, [
      { role: "reviewer", startedAt: at(1) },
      { role: "fixer", startedAt: at(2) },
    ]);
    await seedFindings(db, runId!, [{ number: 1 }, { number: 2 }]);
    await seedFindings(db, otherRunId!, [{ number: 1 }]);
    const long = `${"x".repeat(5000)}the end`;
    const [setup, repro1, repro2, before, after] = await seedExecutions(db, runId!, [
      { turnId: review, kind: "setup", name: "setup", command: "npm ci", cached: true, durationMs: 0, outputTail: "" },
      {
        turnId: review,
        findingNumber: 1,
        command: "node --test t.js",
        name: "node --test t.js",
        outcome: "reproduced",
        exitCode: 1,
        durationMs: 1200,
        outputTail: long,
      },
      {
        turnId: review,
        findingNumber: 2,
        outcome: "broken",
        exitCode: null,
        durationMs: 30000,
        outputTail: "timed out",
      },
      { turnId: null, kind: "check", phase: "before", outcome: "passed", durationMs: 800 },
      { turnId: fix, findingNumber: 1, phase: "after", outcome: "passed", durationMs: 900, headSha: "e".repeat(40) },
    ]);
    await seedExecutions(db, otherRunId!, [{ findingNumber: 1, durationMs: 99_999 }]);

    const view = (await readRunView(db, 30, 3))!;

    expect(view.executions.map((e) => [e.id, e.turnId, e.findingNumber, e.kind, e.phase, e.outcome])).toEqual([
      [setup, review, null, "setup", "review", "passed"],
      [repro1, review, 1, "reproducer", "review", "reproduced"],
      [repro2, review, 2, "reproducer", "review", "broken"],
      [before, null, null, "check", "before", "passed"],
      [after, fix, 1, "reproducer", "after", "passed"],
    ]);
    const [, reproduced] = view.executions;
    expect(reproduced).toMatchObject({ command: "node --test t.js", exitCode: 1, durationMs: 1200, cached: false });
    expect(reproduced!.outputTail).toBe(long.slice(-OUTPUT_SHOWN));
    expect(reproduced!.outputLength).toBe(long.length);
    expect(reproduced!.at).toBeInstanceOf(Date);
    expect(view.executions[0]).toMatchObject({ cached: true, outputTail: "", outputLength: 0 });
    expect(view.executions[2]).toMatchObject({ exitCode: null, outputTail: "timed out", outputLength: 9 });
    expect(view.findings.map((f) => f.executions.map((e) => e.id))).toEqual([[repro1, after], [repro2]]);
    expect(view.turns.map((t) => [t.id, t.executions, t.executionMs])).toEqual([
      [review, 3, 31200],
      [fix, 1, 900],
    ]);
    expect(view.totals.executionMs).toBe(32900);
  });

  it("is undefined for a PR the app has no run for, in that repository", async () => {
    const db = database.handle.db;
    await seedRuns(db, [{ repositoryId: 20, fullName: "octo/one", prNumber: 1 }]);
    expect(await readRunView(db, 20, 2)).toBeUndefined();
    expect(await readRunView(db, 21, 1)).toBeUndefined();
    expect((await readRunView(db, 20, 1))!.turns).toEqual([]);
  });
});
