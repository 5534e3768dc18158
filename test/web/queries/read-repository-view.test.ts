import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRepositoryView } from "../../../src/web/queries/read-repository-view.js";
import { seedFindings, seedRuns, seedTurns, type SeedRun } from "../../helpers/run-view-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";

const kinds = await databaseKinds();
const at = (hour: number) => new Date(Date.UTC(2026, 10, 1, hour));

describe.each(kinds)("readRepositoryView on %s", (kind) => {
  let database: TestDatabase;
  let ids: number[];
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const db = database.handle.db;
    // PR n updated at hour n: newest activity is the highest number
    const rows: SeedRun[] = [
      { repositoryId: 1, fullName: "octo/widgets", prNumber: 1, author: "alice", state: "closed", updatedAt: at(1) },
      { repositoryId: 1, fullName: "octo/widgets", prNumber: 2, author: "Bob", updatedAt: at(2), draft: true },
      { repositoryId: 1, fullName: "octo/widgets", prNumber: 3, author: "alice", state: "paused", updatedAt: at(3) },
      {
        repositoryId: 1,
        fullName: "octo/widgets",
        prNumber: 4,
        author: "carol",
        updatedAt: at(4),
        lastReviewedSha: "e".repeat(40),
      },
      { repositoryId: 1, fullName: "octo/widgets", prNumber: 5, author: "ALICE", updatedAt: at(5) },
      { repositoryId: 2, fullName: "octo/else", prNumber: 6, author: "mallory", updatedAt: at(6) },
    ];
    ids = await seedRuns(db, rows);
    await seedFindings(db, ids[3]!, [
      { number: 1, severity: "error", status: "open" },
      { number: 2, severity: "error", status: "fix-pushed" },
      { number: 3, severity: "warning", status: "open" },
      { number: 4, severity: "info", status: "dismissed" },
      { number: 5, severity: "info", status: "open" },
    ]);
    await seedFindings(db, ids[1]!, [{ number: 1, severity: "warning", status: "fixed" }]);
    await seedTurns(db, ids[3]!, [
      { startedAt: at(4), costUsd: 0.5 },
      { startedAt: at(4), costUsd: 0.25, role: "fixer" },
    ]);
    await seedTurns(db, ids[5]!, [{ startedAt: at(6), costUsd: 9 }]);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("lists every PR newest activity first, with open findings by severity, turns and spend", async () => {
    const view = await readRepositoryView(database.handle.db, 1, { state: "all", page: 1 });
    expect(view).toMatchObject({ repositoryId: 1, fullName: "octo/widgets", total: 5, pageSize: 50 });
    expect(view.authors).toEqual(["alice", "ALICE", "Bob", "carol"]);
    expect(view.pullRequests.map((p) => [p.number, p.author, p.state, p.draft, p.turns, p.spendUsd])).toEqual([
      [5, "ALICE", "open", false, 0, 0],
      [4, "carol", "open", false, 2, 0.75],
      [3, "alice", "paused", false, 0, 0],
      [2, "Bob", "open", true, 0, 0],
      [1, "alice", "closed", false, 0, 0],
    ]);
    expect(view.pullRequests[1]).toMatchObject({
      openFindings: { error: 2, warning: 1, info: 1 },
      lastReviewedSha: "e".repeat(40),
      updatedAt: at(4),
      title: "PR 4",
    });
    expect(view.pullRequests[3]!.openFindings).toEqual({ error: 0, warning: 0, info: 0 });
  });

  it("filters by state and by author (any case)", async () => {
    const db = database.handle.db;
    const numbers = async (filter: Parameters<typeof readRepositoryView>[2]) => {
      const view = await readRepositoryView(db, 1, filter);
      return [view.total, view.pullRequests.map((p) => p.number)];
    };
    expect(await numbers({ state: "open", page: 1 })).toEqual([3, [5, 4, 2]]);
    expect(await numbers({ state: "closed", page: 1 })).toEqual([1, [1]]);
    expect(await numbers({ state: "paused", page: 1 })).toEqual([1, [3]]);
    expect(await numbers({ state: "all", author: "Alice", page: 1 })).toEqual([3, [5, 3, 1]]);
    expect(await numbers({ state: "open", author: "alice", page: 1 })).toEqual([1, [5]]);
    // another repository's author is nobody here
    expect(await numbers({ state: "all", author: "mallory", page: 1 })).toEqual([0, []]);
  });

  it("pages: pageSize at a time, the total over all pages; past the end is empty", async () => {
    const db = database.handle.db;
    const page = async (n: number) => readRepositoryView(db, 1, { state: "all", page: n }, 2);
    expect((await page(1)).pullRequests.map((p) => p.number)).toEqual([5, 4]);
    expect((await page(2)).pullRequests.map((p) => p.number)).toEqual([3, 2]);
    expect(await page(3)).toMatchObject({ total: 5, pageSize: 2, filter: { page: 3 } });
    expect((await page(3)).pullRequests.map((p) => p.number)).toEqual([1]);
    expect((await page(4)).pullRequests).toEqual([]);
    expect((await page(0)).filter.page).toBe(1);
  });

  it("only reads the given repository; one the app has no run in reads as empty", async () => {
    const db = database.handle.db;
    const other = await readRepositoryView(db, 2, { state: "all", page: 1 });
    expect(other.pullRequests.map((p) => [p.number, p.spendUsd])).toEqual([[6, 9]]);
    expect(other.authors).toEqual(["mallory"]);
    expect(await readRepositoryView(db, 3, { state: "all", page: 1 })).toEqual({
      repositoryId: 3,
      fullName: "",
      filter: { state: "all", page: 1 },
      pullRequests: [],
      total: 0,
      pageSize: 50,
      authors: [],
    });
  });
});
