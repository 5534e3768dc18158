import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scorecardSince } from "../../../src/domain/scorecard-period.js";
import { readRepositoryOutcomeRates } from "../../../src/db/repository-outcome-rates.js";
import { readScorecard } from "../../../src/web/queries/read-scorecard.js";
import { addressedRate, costPerAddressed, emptyCounts, noiseRate } from "../../../src/web/views/scorecard-view.js";
import { SCORECARD_NOW, seedScorecardLedger } from "../../helpers/scorecard-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";

const kinds = await databaseKinds();
const counts = (c: Partial<ReturnType<typeof emptyCounts>>) => ({ ...emptyCounts(), ...c });

describe("scorecardSince", () => {
  it.each([
    ["2026-11-25T12:00:00Z", 12, "2026-09-07T00:00:00.000Z"],
    ["2026-11-23T00:00:00Z", 1, "2026-11-23T00:00:00.000Z"],
    ["2026-11-29T23:59:59Z", 1, "2026-11-23T00:00:00.000Z"],
    ["2026-11-30T00:00:00Z", 2, "2026-11-23T00:00:00.000Z"],
  ])("%s over %i weeks starts on %s (a Monday, UTC)", (now, weeks, since) => {
    expect(scorecardSince(new Date(now), weeks).toISOString()).toBe(since);
  });
});

describe.each(kinds)("readScorecard on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedScorecardLedger(database.handle.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("a repository's outcomes, rates, breakdowns, spend, times and weeks, from its own findings and turns only", async () => {
    const card = await readScorecard(database.handle.db, { repositoryIds: [1] }, SCORECARD_NOW);
    expect(card.since.toISOString()).toBe("2026-09-07T00:00:00.000Z");
    expect(card.total).toEqual(counts({ posted: 6, fixed: 2, dismissed: 1, withdrawn: 1, openAtMerge: 1, open: 1 }));
    expect([addressedRate(card.total), noiseRate(card.total)]).toEqual([2 / 6, 2 / 6]);
    expect(card.byAgentModel).toEqual([
      {
        agent: "claude-code",
        model: "claude-opus-4-8",
        ...counts({ posted: 4, fixed: 1, dismissed: 1, withdrawn: 1, open: 1 }),
        turns: 3,
        resumedTurns: 1,
        spendUsd: 1.1,
        pushToReviewSeconds: 90,
      },
      {
        agent: "codex",
        model: "gpt-5",
        ...counts({ posted: 2, fixed: 1, openAtMerge: 1 }),
        turns: 1,
        resumedTurns: 0,
        spendUsd: 0.1,
        pushToReviewSeconds: 300,
      },
    ]);
    expect(card.bySeverity).toEqual([
      { label: "error", ...counts({ posted: 2, fixed: 2 }) },
      { label: "info", ...counts({ posted: 1, openAtMerge: 1 }) },
      { label: "warning", ...counts({ posted: 3, dismissed: 1, withdrawn: 1, open: 1 }) },
    ]);
    expect(card.byReproduction).toEqual([
      { label: "none", ...counts({ posted: 3, dismissed: 1, openAtMerge: 1, open: 1 }) },
      { label: "not-reproduced", ...counts({ posted: 1, withdrawn: 1 }) },
      { label: "reproduced", ...counts({ posted: 2, fixed: 2 }) },
    ]);
    expect(card.byRepository.map((r) => [r.label, r.posted])).toEqual([["octo/widgets", 6]]);
    expect([card.turns, card.resumedTurns, card.spendUsd, card.pushToReviewSeconds]).toEqual([4, 1, 1.2, 120]);
    expect(costPerAddressed(card.spendUsd, card.total.fixed)).toBeCloseTo(0.6, 10);
    expect(card.secondsToOutcome).toEqual([
      { outcome: "dismissed", seconds: 7200 },
      { outcome: "fixed", seconds: 2700 },
      { outcome: "open-at-merge", seconds: 86_400 },
      { outcome: "withdrawn", seconds: 600 },
    ]);
    expect(card.weeks).toHaveLength(12);
    expect(card.weeks[0]).toEqual({ weekStart: new Date("2026-09-07T00:00:00Z"), posted: 0, fixed: 0, noise: 0 });
    expect(card.weeks.slice(10)).toEqual([
      { weekStart: new Date("2026-11-16T00:00:00Z"), posted: 1, fixed: 1, noise: 0 },
      { weekStart: new Date("2026-11-23T00:00:00Z"), posted: 5, fixed: 1, noise: 2 },
    ]);
  });

  it("every repository for the operator; nothing for a repository without findings", async () => {
    const db = database.handle.db;
    const all = await readScorecard(db, "all", SCORECARD_NOW);
    expect(all.total).toEqual(counts({ posted: 7, fixed: 3, dismissed: 1, withdrawn: 1, openAtMerge: 1, open: 1 }));
    expect(all.byRepository.map((r) => [r.label, r.posted, r.fixed])).toEqual([
      ["octo/else", 1, 1],
      ["octo/widgets", 6, 2],
    ]);
    expect([all.turns, all.spendUsd, all.pushToReviewSeconds]).toEqual([5, 2.2, 90]);

    for (const scope of [{ repositoryIds: [3] }, { repositoryIds: [] }]) {
      const none = await readScorecard(db, scope, SCORECARD_NOW);
      expect(none.total).toEqual(emptyCounts());
      expect([none.byAgentModel, none.turns, none.pushToReviewSeconds]).toEqual([[], 0, null]);
      expect([addressedRate(none.total), noiseRate(none.total), costPerAddressed(0, 0)]).toEqual([null, null, null]);
      expect(none.weeks.every((w) => w.posted === 0)).toBe(true);
    }
  });

  it("the status line's rates: the scorecard's posted, fixed and noise for one repository", async () => {
    const db = database.handle.db;
    const since = scorecardSince(SCORECARD_NOW);
    expect(await readRepositoryOutcomeRates(db, 1, since)).toEqual({ posted: 6, fixed: 2, noise: 2 });
    expect(await readRepositoryOutcomeRates(db, 2, since)).toEqual({ posted: 1, fixed: 1, noise: 0 });
    expect(await readRepositoryOutcomeRates(db, 3, since)).toEqual({ posted: 0, fixed: 0, noise: 0 });
  });
});
