import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BacktestState } from "../../../src/backtest/replay/backtest-state.js";
import type { PrReviewResult } from "../../../src/backtest/replay/pr-review-result.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const result = (prId: string, costUsd: number, head = "h1"): PrReviewResult => ({
  prId,
  pushes: 1,
  baseSha: "b",
  heads: [head],
  reviews: 1,
  findings: [],
  turns: 1,
  tokensIn: 0,
  tokensOut: 0,
  costUsd,
  wallMs: 1,
});

describe("BacktestState's spending", () => {
  it("keeps what set-aside reviews cost: a configuration changed, a PR reviewed again at other commits", async () => {
    const path = join(tempDir("nm-backtest-state-"), "state.json");
    const first = await BacktestState.open(path);
    first.useConfiguration("A", "fingerprint-1");
    await first.record("A", result("#1", 0.5));
    await first.record("A", result("#2", 0.25));
    await first.addJudgeSpend(0.125);
    expect(first.spentUsd()).toBe(0.875);

    // A rerun with another configuration: both results are set aside, their cost is not forgotten.
    const second = await BacktestState.open(path);
    expect(second.useConfiguration("A", "fingerprint-2")).toEqual({ reused: 0, dropped: 2 });
    expect(second.spentUsd()).toBe(0.875);
    await second.record("A", result("#1", 1));
    // #1 again at other commits: the result it replaces was paid for too.
    await second.record("A", result("#1", 2, "h2"));
    expect(second.spentUsd()).toBe(3.875);
    expect(second.result("A", "#1")?.heads).toEqual(["h2"]);

    const reopened = await BacktestState.open(path);
    expect(reopened.spentUsd()).toBe(3.875);
    expect(JSON.parse(readFileSync(path, "utf8")).setAsideSpentUsd).toBe(1.75);
  });
});
