import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../../src/db/database.js";
import * as schema from "../../../src/db/schema.js";
import { findRepository } from "../../../src/web/queries/find-repository.js";
import { readRepositoriesView } from "../../../src/web/queries/read-repositories-view.js";
import { readRepositoryView } from "../../../src/web/queries/read-repository-view.js";
import { readRunView } from "../../../src/web/queries/read-run-view.js";
import { readScorecard } from "../../../src/web/queries/read-scorecard.js";
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

/**
 * Every statement the run view's pages send, as PostgreSQL would run it with sequential scans priced out
 * (`enable_seqscan = off`): where an index can serve a statement the planner takes it, so a "Seq Scan" on
 * one of the app's tables means no index fits — a page whose cost would grow with the whole table (every
 * run, every turn) rather than with what it shows.
 */
const APP_TABLES = ["runs", "turns", "findings", "finding_events", "run_commands", "run_agent_sessions", "executions"];
const kinds = await databaseKinds();

describe.skipIf(!kinds.includes("postgres"))("the run view's statements on PostgreSQL", () => {
  let database: TestDatabase;
  let client: postgres.Sql;
  let statements: { query: string; params: unknown[] }[] = [];
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const seedDb = database.handle.db;
    const at = (day: number) => new Date(Date.UTC(2026, 10, day));
    const [runId, bigRunId] = await seedRuns(seedDb, [
      { repositoryId: 1, fullName: "octo/widgets", prNumber: 7, author: "alice", updatedAt: at(2) },
      { repositoryId: 1, fullName: "octo/widgets", prNumber: 8, author: "bob", updatedAt: at(3) },
      { repositoryId: 2, fullName: "octo/else", prNumber: 1, author: "carol", updatedAt: at(4) },
    ]);
    const [turnId] = await seedTurns(seedDb, runId!, [{ startedAt: at(1), costUsd: 0.5 }]);
    await seedFindings(seedDb, runId!, [{ number: 1, status: "open", introducedTurnId: turnId }]);
    await seedEvents(seedDb, runId!, [{ findingNumber: 1, kind: "raised", turnId }]);
    await seedSession(seedDb, { runId: runId!, role: "reviewer", sessionId: "s" });
    await seedCommands(seedDb, runId!, [{ commentId: 1, author: "alice" }]);
    await seedExecutions(seedDb, runId!, [
      { turnId, kind: "setup" },
      { turnId, findingNumber: 1 },
    ]);
    // PR 8: forty of everything
    const many = Array.from({ length: 40 }, (_, i) => i + 1);
    const bigTurns = await seedTurns(
      seedDb,
      bigRunId!,
      many.map((i) => ({ startedAt: at(1), costUsd: i / 100 })),
    );
    await seedFindings(
      seedDb,
      bigRunId!,
      many.map((number) => ({ number, status: "open", introducedTurnId: bigTurns[0] })),
    );
    await seedEvents(
      seedDb,
      bigRunId!,
      many.flatMap((findingNumber) => [
        { findingNumber, kind: "raised" },
        { findingNumber, kind: "posted" },
      ]),
    );
    await seedSession(seedDb, { runId: bigRunId!, role: "reviewer", sessionId: "s8" });
    await seedSession(seedDb, { runId: bigRunId!, role: "fixer", sessionId: "f8" });
    await seedCommands(
      seedDb,
      bigRunId!,
      many.map((i) => ({ commentId: 100 + i, author: "bob" })),
    );
    await seedExecutions(
      seedDb,
      bigRunId!,
      many.map((findingNumber) => ({ turnId: bigTurns[0], findingNumber })),
    );
    // A connection of the test's own, on the same database, that notes every statement Drizzle sends.
    client = postgres(database.handle.url!, { max: 1, onnotice: () => {} });
    db = drizzle({
      client,
      schema,
      logger: { logQuery: (query, params) => statements.push({ query, params }) },
    }) as unknown as Database;
  });
  afterAll(async () => {
    await client?.end();
    await database?.dispose();
  });

  /** The plans of what `read` sent, each as PostgreSQL prints it. */
  async function plansOf(read: () => Promise<unknown>): Promise<{ query: string; plan: string }[]> {
    statements = [];
    await read();
    expect(statements.length).toBeGreaterThan(0);
    return client.begin(async (tx) => {
      await tx.unsafe("set local enable_seqscan = off");
      const plans: { query: string; plan: string }[] = [];
      for (const s of statements) {
        const rows = await tx.unsafe(`explain ${s.query}`, s.params as postgres.ParameterOrJSON<never>[]);
        plans.push({ query: s.query, plan: rows.map((r) => String(r["QUERY PLAN"])).join("\n") });
      }
      return plans;
    });
  }

  it.each([
    ["a repository found by its name, any case", () => findRepository(db, "OCTO/Widgets")],
    ["the repositories page", () => readRepositoriesView(db, [1, 2], new Date(Date.UTC(2026, 10, 10)))],
    ["a repository's page", () => readRepositoryView(db, 1, { state: "all", page: 1 })],
    [
      "a repository's page filtered by state and author, page 2",
      () => readRepositoryView(db, 1, { state: "open", author: "ALICE", page: 2 }),
    ],
    ["a PR's run page", () => readRunView(db, 1, 7)],
    ["a repository's scorecard", () => readScorecard(db, { repositoryIds: [1] }, new Date(Date.UTC(2026, 10, 10)))],
    ["the operator's scorecard (every repository)", () => readScorecard(db, "all", new Date(Date.UTC(2026, 10, 10)))],
  ])("%s: every statement reads the app's tables through an index", async (_, read) => {
    const plans = await plansOf(read);
    for (const { query, plan } of plans) {
      for (const table of APP_TABLES)
        expect(plan, `${query}\n${plan}`).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
    }
  });

  it("a page sends as many statements for a big run or repository as for a small one (no statement per row)", async () => {
    const count = async (read: () => Promise<unknown>) => {
      statements = [];
      await read();
      return statements.length;
    };
    expect(await count(() => readRunView(db, 1, 8))).toBe(await count(() => readRunView(db, 1, 7)));
    expect(await count(() => readRepositoryView(db, 1, { state: "all", page: 1 }))).toBe(
      await count(() => readRepositoryView(db, 2, { state: "all", page: 1 })),
    );
    expect(await count(() => readRepositoriesView(db, [1, 2]))).toBe(await count(() => readRepositoriesView(db, [2])));
    expect(await count(() => readScorecard(db, { repositoryIds: [1] }))).toBe(
      await count(() => readScorecard(db, { repositoryIds: [2] })),
    );
  });

  it("notices a statement no index serves (the check can fail)", async () => {
    const plans = await plansOf(() => db.select().from(schema.runs).where(eq(schema.runs.title, "x")));
    expect(plans[0]!.plan).toMatch(/Seq Scan on runs\b/);
  });
});
