import { describe, expect, it } from "vitest";
import { bootstrapDifference } from "../../../src/backtest/score/bootstrap-difference.js";
import { prf } from "../../../src/backtest/score/prf.js";
import type { ScoredPr } from "../../../src/backtest/score/scored-pr.js";

describe("prf", () => {
  it.each([
    {
      c: { raised: 4, matchedFindings: 3, golden: 5, matchedGolden: 3 },
      out: { precision: 0.75, recall: 0.6, f1: 0.9 / 1.35 },
    },
    { c: { raised: 2, matchedFindings: 0, golden: 3, matchedGolden: 0 }, out: { precision: 0, recall: 0, f1: 0 } },
    // Nothing raised against real issues: no precision, but nothing found — recall 0, F1 0.
    {
      c: { raised: 0, matchedFindings: 0, golden: 2, matchedGolden: 0 },
      out: { precision: null, recall: 0, f1: 0 },
    },
    {
      c: { raised: 0, matchedFindings: 0, golden: 0, matchedGolden: 0 },
      out: { precision: null, recall: null, f1: null },
    },
    {
      c: { raised: 1, matchedFindings: 0, golden: 0, matchedGolden: 0 },
      out: { precision: 0, recall: null, f1: null },
    },
  ])("$c", ({ c, out }) => {
    const got = prf(c);
    expect(got.precision).toBe(out.precision);
    expect(got.recall).toBe(out.recall);
    if (out.f1 === null) expect(got.f1).toBeNull();
    else expect(got.f1).toBeCloseTo(out.f1, 12);
  });
});

const pr = (id: string, raised: number, matched: number, golden: number, found: number, costUsd: number): ScoredPr => ({
  prId: id,
  raised,
  notes: 0,
  golden,
  matchedFindings: matched,
  matchedGolden: found,
  byFindingSeverity: {},
  byGoldenSeverity: {},
  byReproduction: {
    reproduced: { raised: 0, matchedFindings: 0, matchedGolden: 0 },
    unreproduced: { raised, matchedFindings: matched, matchedGolden: found },
  },
  matches: [],
  costUsd,
  judgeCostUsd: 0,
  wallMs: 1000,
});

describe("bootstrapDifference", () => {
  const a = [pr("1", 2, 1, 2, 1, 0.1), pr("2", 4, 1, 1, 1, 0.2), pr("3", 1, 1, 3, 1, 0.3), pr("4", 3, 0, 1, 0, 0.4)];
  const b = [pr("1", 1, 1, 2, 1, 0.2), pr("2", 2, 1, 1, 1, 0.3), pr("3", 1, 1, 3, 2, 0.4), pr("4", 1, 0, 1, 0, 0.5)];

  it("gives the same interval for the same seed, and another for another seed", () => {
    const one = bootstrapDifference(a, b, { resamples: 500, seed: 3 });
    expect(bootstrapDifference(a, b, { resamples: 500, seed: 3 })).toEqual(one);
    expect(bootstrapDifference(a, b, { resamples: 500, seed: 4 })).not.toEqual(one);
  });

  it("puts the whole-sample difference between the interval's ends, and a constant difference on both", () => {
    const m = Object.fromEntries(bootstrapDifference(a, b, { resamples: 1000, seed: 1 }).map((x) => [x.metric, x]));
    // A: 3/10 findings real, 3/7 issues found; B: 3/5 and 4/7.
    expect(m.precision!.difference).toBeCloseTo(0.6 - 0.3, 12);
    expect(m.recall!.difference).toBeCloseTo(4 / 7 - 3 / 7, 12);
    for (const metric of ["precision", "recall", "f1"]) {
      expect(m[metric]!.low!).toBeLessThanOrEqual(m[metric]!.difference!);
      expect(m[metric]!.high!).toBeGreaterThanOrEqual(m[metric]!.difference!);
    }
    expect([m.costPerPr!.low, m.costPerPr!.high].map((v) => Number(v!.toFixed(12)))).toEqual([0.1, 0.1]);
    expect(m.wallMsPerPr).toMatchObject({ difference: 0, low: 0, high: 0 });
  });

  it("scores a resample on which A raised nothing as the whole is scored (F1 0), and says what precision's interval is made of", () => {
    // A is silent on PR 1 and right on PR 2; B is right on both. Every PR has one real issue.
    const silent = [pr("1", 0, 0, 1, 0, 0.1), pr("2", 1, 1, 1, 1, 0.1)];
    const right = [pr("1", 1, 1, 1, 1, 0.1), pr("2", 1, 1, 1, 1, 0.1)];
    const m = Object.fromEntries(
      bootstrapDifference(silent, right, { resamples: 1000, seed: 5 }).map((x) => [x.metric, x]),
    );
    // Whole: A's precision 1/1, recall 1/2, F1 2/3; B's all 1.
    expect(m.f1!.difference).toBeCloseTo(1 / 3, 12);
    // A resample is {1,1} (¼: A's F1 0, B − A = 1), {2,2} (¼: 0) or one of each (½: A's F1 2/3, B − A = 1/3).
    // Every resample counts: the interval reaches 1. (Left out as "no value", {1,1} gave [0, 1/3].)
    expect(m.f1).toMatchObject({ resamples: 1000, low: 0, high: 1 });
    expect(m.recall).toMatchObject({ resamples: 1000, low: 0, high: 1 });
    // Precision has no value for A on {1,1}: those resamples (about a quarter) are left out, and counted.
    expect(m.precision!.resamples).toBeGreaterThan(600);
    expect(m.precision!.resamples).toBeLessThan(900);
    expect(m.precision).toMatchObject({ difference: 0, low: 0, high: 0 });
  });

  it("refuses configurations that did not finish the same PRs", () => {
    expect(() => bootstrapDifference(a, b.slice(1), { resamples: 10, seed: 1 })).toThrow(/same PRs/);
  });
});
