import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findingOutcomeStats } from "../../src/metrics/finding-outcome-stats.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { seedScorecardLedger } from "../helpers/scorecard-seed.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../helpers/test-database.js";
import { sample } from "./sample.js";

const kinds = await databaseKinds();
const series = (repository: string, agent: string, model: string, outcome: string) =>
  `findings_outcomes{repository="${repository}",agent="${agent}",model="${model}",outcome="${outcome}"}`;

describe.each(kinds)("finding outcome metrics on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedScorecardLedger(database.handle.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });
  const stats = () => findingOutcomeStats((text, values) => database.handle.executeSql(text, values));

  it("counts every posted finding by repository, agent, model and outcome (notes never)", async () => {
    expect(await stats()).toEqual([
      { repository: "octo/else", agent: "claude-code", model: "claude-opus-4-8", outcome: "fixed", count: 1 },
      { repository: "octo/widgets", agent: "claude-code", model: "claude-opus-4-8", outcome: "dismissed", count: 1 },
      { repository: "octo/widgets", agent: "claude-code", model: "claude-opus-4-8", outcome: "fixed", count: 2 },
      { repository: "octo/widgets", agent: "claude-code", model: "claude-opus-4-8", outcome: "open", count: 1 },
      { repository: "octo/widgets", agent: "claude-code", model: "claude-opus-4-8", outcome: "withdrawn", count: 1 },
      { repository: "octo/widgets", agent: "codex", model: "gpt-5", outcome: "fixed", count: 1 },
      { repository: "octo/widgets", agent: "codex", model: "gpt-5", outcome: "open-at-merge", count: 1 },
    ]);
  });

  it("are read from the database at each scrape", async () => {
    const metrics = new Metrics({ findingOutcomes: stats, processMetrics: false });
    const text = await metrics.text();
    expect(sample(text, series("octo/widgets", "claude-code", "claude-opus-4-8", "fixed"))).toBe(2);
    expect(sample(text, series("octo/widgets", "codex", "gpt-5", "open-at-merge"))).toBe(1);
    expect(sample(text, series("octo/else", "claude-code", "claude-opus-4-8", "fixed"))).toBe(1);
  });
});

describe("finding outcome metrics when the database cannot be read", () => {
  it("answer the scrape without them, with no stale count, and say why in the log", async () => {
    const { log, lines } = captureLogger();
    let calls = 0;
    const metrics = new Metrics({
      log,
      processMetrics: false,
      findingOutcomes: async () =>
        calls++ === 0
          ? [{ repository: "o/r", agent: "codex", model: "gpt-5", outcome: "fixed", count: 3 }]
          : Promise.reject(new Error("connection refused")),
    });
    expect(sample(await metrics.text(), series("o/r", "codex", "gpt-5", "fixed"))).toBe(3);
    expect(await metrics.text()).not.toContain('findings_outcomes{repository="o/r"');
    expect(lines()).toContainEqual(
      expect.objectContaining({ level: 40, msg: "finding outcome metrics could not be read" }),
    );
  });
});
