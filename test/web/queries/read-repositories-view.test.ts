import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRepository } from "../../../src/web/queries/find-repository.js";
import { readRepositoriesView } from "../../../src/web/queries/read-repositories-view.js";
import { seedFindings, seedRuns, seedTurns } from "../../helpers/run-view-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";

const kinds = await databaseKinds();
const NOW = new Date(Date.UTC(2026, 10, 30, 12));
const daysAgo = (days: number, hours = 0) => new Date(NOW.getTime() - (days * 24 + hours) * 3600_000);

describe.each(kinds)("readRepositoriesView and findRepository on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("sums each readable repository: open PRs and findings, spend over 7 and 30 days, last activity; newest first", async () => {
    const db = database.handle.db;
    const [a1, a2, a3, a4, b1] = await seedRuns(db, [
      { repositoryId: 100, fullName: "octo/old-name", prNumber: 1, updatedAt: daysAgo(40) },
      { repositoryId: 100, fullName: "octo/widgets", prNumber: 2, updatedAt: daysAgo(3) },
      { repositoryId: 100, fullName: "octo/widgets", prNumber: 3, state: "closed", updatedAt: daysAgo(2) },
      { repositoryId: 100, fullName: "octo/widgets", prNumber: 4, state: "paused", updatedAt: daysAgo(20) },
      { repositoryId: 200, fullName: "octo/gadgets", prNumber: 1, updatedAt: daysAgo(10) },
      // not readable by this person
      { repositoryId: 300, fullName: "secret/repo", prNumber: 1, updatedAt: daysAgo(0) },
    ]);
    await seedFindings(db, a1!, [
      { number: 1, status: "open", severity: "error" },
      { number: 2, status: "fix-pushed" },
      { number: 3, status: "fixed" },
      { number: 4, status: "note" },
    ]);
    await seedFindings(db, a2!, [{ number: 1, status: "dismissed" }]);
    // a closed PR's open findings do not count
    await seedFindings(db, a3!, [{ number: 1, status: "open" }]);
    await seedFindings(db, a4!, [
      { number: 1, status: "open" },
      { number: 2, status: "deferred" },
    ]);
    await seedTurns(db, a1!, [
      { startedAt: daysAgo(1), costUsd: 1.5 },
      { startedAt: daysAgo(6, 23), costUsd: 0.25 },
      { startedAt: daysAgo(7, 1), costUsd: 2 }, // month only
      { startedAt: daysAgo(29), costUsd: 4 },
      { startedAt: daysAgo(31), costUsd: 8 }, // neither
    ]);
    await seedTurns(db, a3!, [{ startedAt: daysAgo(0, 2), costUsd: 0.125 }]);
    await seedTurns(db, b1!, [{ startedAt: daysAgo(9), costUsd: 3 }]);

    const view = await readRepositoriesView(db, [200, 100, 400], NOW);

    expect(view.repositories).toEqual([
      {
        repositoryId: 100,
        fullName: "octo/widgets",
        openPullRequestsWithFindings: 2,
        openPullRequests: 3,
        openFindings: 3,
        spendWeekUsd: 1.875,
        spendMonthUsd: 7.875,
        lastActivityAt: daysAgo(0, 2),
      },
      {
        repositoryId: 200,
        fullName: "octo/gadgets",
        openPullRequestsWithFindings: 0,
        openPullRequests: 1,
        openFindings: 0,
        spendWeekUsd: 0,
        spendMonthUsd: 3,
        lastActivityAt: daysAgo(9),
      },
    ]);
    expect(await readRepositoriesView(db, [], NOW)).toEqual({ repositories: [] });
    expect((await readRepositoriesView(db, [300], NOW)).repositories.map((r) => r.fullName)).toEqual(["secret/repo"]);
  });

  it("finds a repository by its name in any case; the newest run's name wins", async () => {
    const db = database.handle.db;
    await seedRuns(db, [
      { repositoryId: 500, fullName: "Acme/Tools", prNumber: 1, updatedAt: daysAgo(5) },
      { repositoryId: 500, fullName: "acme/tools-renamed", prNumber: 2, updatedAt: daysAgo(1) },
    ]);
    expect(await findRepository(db, "acme/TOOLS")).toEqual({ repositoryId: 500, fullName: "Acme/Tools" });
    expect(await findRepository(db, "ACME/tools-renamed")).toEqual({
      repositoryId: 500,
      fullName: "acme/tools-renamed",
    });
    expect(await findRepository(db, "acme/nothing")).toBeUndefined();
  });
});
