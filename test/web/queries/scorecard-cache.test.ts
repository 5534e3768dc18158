import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findings, runs, scorecardRevisions, turns } from "../../../src/db/schema.js";
import { readScorecard } from "../../../src/web/queries/read-scorecard.js";
import { createScorecardCache } from "../../../src/web/queries/scorecard-cache.js";
import { SCORECARD_NOW, seedScorecardLedger } from "../../helpers/scorecard-seed.js";
import { seedTurns } from "../../helpers/run-view-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";

const kinds = await databaseKinds();

describe.each(kinds)("the scorecard cache on %s", (kind) => {
  let database: TestDatabase;
  let ids: { merged: number; open: number; other: number };
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ids = await seedScorecardLedger(database.handle.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const revisions = async () =>
    Object.fromEntries(
      (await database.handle.db.select().from(scorecardRevisions)).map((r) => [r.repositoryId, r.revision]),
    );
  const fresh = (scope: { repositoryIds: number[] } | "all") => readScorecard(database.handle.db, scope, SCORECARD_NOW);

  it("answers what readScorecard reads, and again after every change to a run, finding or turn", async () => {
    const db = database.handle.db;
    const cached = createScorecardCache(db);
    const one = { repositoryIds: [1] };
    expect(await cached(one, SCORECARD_NOW)).toEqual(await fresh(one));
    expect(await cached("all", SCORECARD_NOW)).toEqual(await fresh("all"));
    expect(await cached(one, SCORECARD_NOW)).toEqual(await fresh(one));

    await db.update(findings).set({ outcome: "dismissed", status: "dismissed" }).where(eq(findings.runId, ids.open));
    expect((await cached(one, SCORECARD_NOW)).total).toEqual((await fresh(one)).total);
    expect((await cached("all", SCORECARD_NOW)).total).toEqual((await fresh("all")).total);

    await seedTurns(db, ids.open, [{ startedAt: new Date("2026-11-24T10:00:00Z"), costUsd: 2 }]);
    expect((await cached(one, SCORECARD_NOW)).spendUsd).toBe((await fresh(one)).spendUsd);

    await db.update(runs).set({ repositoryFullName: "octo/renamed" }).where(eq(runs.id, ids.other));
    expect((await cached("all", SCORECARD_NOW)).byRepository).toEqual((await fresh("all")).byRepository);
    // and the period: a later week is another scorecard
    const later = new Date(SCORECARD_NOW.getTime() + 7 * 86_400_000);
    expect(await cached(one, later)).toEqual(await readScorecard(db, one, later));
  });

  it("reads no scorecard while the revisions hold (a change made with the triggers off is not seen)", async () => {
    const cached = createScorecardCache(database.handle.db);
    const one = { repositoryIds: [1] };
    const before = await cached(one, SCORECARD_NOW);
    await database.handle.transaction(async (tx) => {
      // The table's owner may switch its trigger off (setting session_replication_role needs a superuser).
      await tx.executeSql("alter table turns disable trigger turns_scorecard_revision");
      await tx.db.update(turns).set({ costUsd: 100 }).where(eq(turns.runId, ids.merged));
      await tx.executeSql("alter table turns enable trigger turns_scorecard_revision");
    });
    expect((await fresh(one)).spendUsd).not.toBe(before.spendUsd);
    expect(await cached(one, SCORECARD_NOW)).toEqual(before);
  });

  it("a transaction raises its repository's revision once at its commit, whatever it wrote", async () => {
    const db = database.handle.db;
    const before = await revisions();
    await database.handle.transaction(async (tx) => {
      await tx.db.update(findings).set({ severity: "info" }).where(eq(findings.runId, ids.merged));
      await tx.db.update(turns).set({ costUsd: 0.01 }).where(eq(turns.runId, ids.merged));
    });
    expect(await revisions()).toEqual({ ...before, 1: before[1]! + 1 });
    await db.execute(sql`truncate ${findings} cascade`);
    const after = await revisions();
    expect(after[1]).toBeGreaterThan(before[1]! + 1);
    expect(after[2]).toBeGreaterThan(before[2]!);
  });
});
