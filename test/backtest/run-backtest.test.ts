import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BacktestIo } from "../../src/backtest/backtest-io.js";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { baseEnv, calls, fakeEnv, JUDGE, makeRepo, options, REVIEWER_A, REVIEWER_B } from "./backtest-world.js";

function io(extra: Partial<BacktestIo> = {}): BacktestIo & { printed: string[]; progressed: string[] } {
  const printed: string[] = [];
  const progressed: string[] = [];
  return {
    env: baseEnv(),
    print: (t) => printed.push(t),
    progress: (l) => progressed.push(l),
    printed,
    progressed,
    ...extra,
  };
}

describe("backtest: A/B of two scripted reviewers on three merged PRs, judged", () => {
  const root = tempDir("nm-backtest-");
  const repoDir = join(root, "clone");
  let report: Awaited<ReturnType<typeof runBacktest>>;
  let out: ReturnType<typeof io>;

  beforeAll(async () => {
    makeRepo(repoDir);
    const judge = fakeEnv(root, "judge", JUDGE);
    out = io();
    report = await runBacktest(
      options(
        repoDir,
        join(root, "out"),
        [
          { label: "A", env: fakeEnv(root, "a", REVIEWER_A) },
          { label: "B", env: fakeEnv(root, "b", REVIEWER_B) },
        ],
        { judgeEnv: judge },
      ),
      out,
    );
  }, 120_000);
  afterAll(() => removeTempDirs());

  it("finds the golden file's PRs by their merge commits and keeps every finding with its placement", () => {
    expect(report.prs.map((p) => p.id)).toEqual(["#1", "#2", "#3"]);
    const a = report.configurations[0]!;
    const parser = a.prs.find((p) => p.prId === "#1")!;
    expect(parser.findings.map((f) => [f.id, f.path, f.line, f.severity, f.placement])).toEqual([
      ["NM-1", "src/parser.ts", 3, "error", "inline"],
      ["NM-2", "src/parser.ts", 7, "warning", "inline"],
    ]);
    // The reviewer saw the PR's own diff, as the app shows it.
    const prompts = calls(root, "a").map((c) => c.prompt);
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).toContain("const next = tokens[i + 1];");
    expect(prompts[0]).not.toContain("src/cache.ts");
  });

  it("scores A exactly: precision 3/4, recall 3/5, F1 2/3 (the judge's wrong match counts, as the judge said)", () => {
    const a = report.configurations[0]!.summary;
    expect([a.raised, a.matchedFindings, a.golden, a.matchedGolden]).toEqual([4, 3, 5, 3]);
    expect(a.precision).toBeCloseTo(0.75, 10);
    expect(a.recall).toBeCloseTo(0.6, 10);
    expect(a.f1).toBeCloseTo(2 / 3, 10);
    expect(a.recallBySeverity).toEqual({
      high: { n: 2, matched: 1, recall: 0.5 },
      low: { n: 1, matched: 0, recall: 0 },
      critical: { n: 1, matched: 1, recall: 1 },
      medium: { n: 1, matched: 1, recall: 1 },
    });
    expect(a.precisionBySeverity).toEqual({
      error: { n: 2, matched: 2, precision: 1 },
      warning: { n: 1, matched: 0, precision: 0 },
      info: { n: 1, matched: 1, precision: 1 },
    });
    expect(a.findingsPerPr).toBeCloseTo(4 / 3, 10);
    expect(a.costUsd).toBeCloseTo(0.3, 10);
    expect(a.costPerPr).toBeCloseTo(0.1, 10);
  });

  it("scores B exactly and the difference B − A, with a bootstrap interval over PRs", () => {
    const b = report.configurations[1]!.summary;
    expect([b.raised, b.matchedFindings, b.golden, b.matchedGolden]).toEqual([3, 3, 5, 3]);
    expect(b.precision).toBe(1);
    expect(b.recall).toBeCloseTo(0.6, 10);
    expect(b.f1).toBeCloseTo(0.75, 10);
    const cmp = report.comparison!;
    expect(cmp.prs).toBe(3);
    const m = Object.fromEntries(cmp.metrics.map((x) => [x.metric, x]));
    expect(m.precision!.difference).toBeCloseTo(0.25, 10);
    expect(m.recall!.difference).toBeCloseTo(0, 10);
    expect(m.f1!.difference).toBeCloseTo(0.75 - 2 / 3, 10);
    // B's precision is 1 on every resample and A's between 1/2 and 1: the difference stays in [0, 1/2].
    expect(m.precision!.low).toBeGreaterThanOrEqual(0);
    expect(m.precision!.high).toBeLessThanOrEqual(0.5);
    expect(m.precision!.low!).toBeLessThan(m.precision!.high!);
    // Every review costs $0.10 (A) or $0.30 (B): the difference per PR is $0.20 on every resample.
    expect(m.costPerPr!.difference).toBeCloseTo(0.2, 10);
    expect(m.costPerPr!.low).toBeCloseTo(0.2, 10);
    expect(m.costPerPr!.high).toBeCloseTo(0.2, 10);
  });

  it("asks the judge once per distinct pair: B's findings that A also made are answered from the cache", () => {
    // A: 2×2 (parser) + 2×2 (cache) + 0 (logger); B: its parser and cache findings are A's, only the logger's is new.
    expect(calls(root, "judge")).toHaveLength(9);
    expect(calls(root, "judge").every((c) => c.role === "verifier")).toBe(true);
    expect(report.judge).toEqual({ asked: 9, cached: 4, costUsd: expect.closeTo(0.09, 10) });
    expect(report.spentUsd).toBeCloseTo(0.3 + 0.9 + 0.09, 10);
  });

  it("prints the table and writes report.json and report.csv", () => {
    const text = out.printed.join("\n");
    expect(text).toMatch(/precision\s+0\.750 \(3\/4\)\s+1\.000 \(3\/3\)\s+\+0\.250 \[/);
    expect(text).toMatch(/recall\s+0\.600 \(3\/5\)\s+0\.600 \(3\/5\)/);
    expect(text).toMatch(/cost per PR\s+\$0\.10\s+\$0\.30\s+\+\$0\.20 \[\+\$0\.20, \+\$0\.20\]/);
    const json = JSON.parse(readFileSync(join(root, "out", "report.json"), "utf8"));
    expect(json.configurations[0].summary.precision).toBe(0.75);
    const csv = readFileSync(join(root, "out", "report.csv"), "utf8")
      .trim()
      .split("\n");
    expect(csv).toHaveLength(1 + 6);
    // nothing was reproduced (no checks): every raised finding is on the unreproduced side
    expect(csv[1]).toBe(
      "A,#1,2,0,2,1,1,0.5000,0.5000,0.5000,0,0,0,,0.0000,2,1,1,0.5000,0.5000,0.100000,0.040000,".concat(
        csv[1]!.split(",")[22]!,
        ",",
      ),
    );
    expect(text).toMatch(/reproduced: precision\s+—\s+\(0\/0\)\s+—\s+\(0\/0\)/);
    expect(text).toMatch(/not reproduced, broken or none: precision\s+0\.750 \(3\/4\)\s+1\.000 \(3\/3\)/);
    expect(out.progressed.filter((l) => /^\[\d\/6\]/.test(l))).toHaveLength(6);
  });
});
