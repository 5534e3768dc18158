import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assignOneToOne } from "../../src/backtest/score/assign-one-to-one.js";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { BacktestRepo, lines } from "./backtest-repo.js";
import { baseEnv, calls, fakeEnv, makeRepo, options, REVIEWER_A } from "./backtest-world.js";

afterAll(() => removeTempDirs());

describe("backtest of an open PR from a pairs file, its commits replayed as pushes, matched by location", () => {
  it("reviews each push as the app does (the second incrementally, in the resumed session) and scores raised findings, not notes", async () => {
    const root = tempDir("nm-backtest-replay-");
    const repo = new BacktestRepo(join(root, "clone"));
    repo.commit({ "src/app.ts": lines("app", 20) }, "app");
    const base = repo.sha("main");
    repo.git("checkout", "-q", "-b", "feature");
    repo.commit({ "src/app.ts": lines("app", 20, { 3: "for (i = 0; i <= n; i++)", 5: "let tmp = 0;" }) }, "loop");
    const head = repo.commit(
      { "src/app.ts": lines("app", 20, { 3: "for (i = 0; i <= n; i++)", 5: "let tmp = 0;", 15: "done();" }) },
      "finish",
    );
    repo.git("checkout", "-q", "main");

    writeFileSync(
      join(root, "pairs.json"),
      JSON.stringify([{ base: "main", head: "feature", pr: 7, title: "Loop work" }]),
    );
    // A team's own golden file, keyed by number, with places: the loop bound (found), the unused variable (only a note).
    writeFileSync(
      join(root, "golden.json"),
      JSON.stringify({
        "7": [
          { comment: "off by one", severity: "error", path: "src/app.ts", line: 4 },
          { comment: "tmp is never used", severity: "warning", path: "src/app.ts", line: 5 },
        ],
      }),
    );
    const loop = {
      path: "src/app.ts",
      line: 3,
      severity: "error",
      action: "ask-user",
      title: "Off-by-one",
      body: "`<=` reads past the end.",
    };
    const unused = {
      path: "src/app.ts",
      line: 5,
      severity: "warning",
      action: "ask-user",
      title: "Unused",
      body: "tmp is never read.",
    };
    const reviewer = [
      { role: "reviewer", times: 1, answer: { summary: "One bug.", findings: [loop], resolved: [] } },
      // The second push only touched line 15: a new finding on line 5 is kept as a note, the loop bound is the same finding.
      { role: "reviewer", times: 1, answer: { summary: "Still.", findings: [loop, unused], resolved: [] } },
    ];
    const report = await runBacktest(
      options(join(root, "clone"), join(root, "out"), [{ label: "team", env: fakeEnv(root, "a", reviewer) }], {
        golden: join(root, "golden.json"),
        pairs: join(root, "pairs.json"),
        replay: true,
        matching: "location",
      }),
      { env: baseEnv(), print: () => {}, progress: () => {} },
    );
    expect(report.prs).toEqual([{ id: "#7", title: "Loop work", baseSha: base, headSha: head, pushes: 2, golden: 2 }]);
    const reviewerCalls = calls(root, "a") as unknown as { resumed: boolean; prompt: string }[];
    expect(reviewerCalls.map((c) => c.resumed)).toEqual([false, true]);
    expect(reviewerCalls[0]!.prompt).toContain("Loop work");

    const pr = report.configurations[0]!.prs[0]!;
    expect(pr.findings.map((f) => [f.id, f.line, f.placement])).toEqual([
      ["NM-1", 3, "inline"],
      ["NM-2", 5, "note"],
    ]);
    expect([pr.raised, pr.notes, pr.matchedFindings, pr.matchedGolden]).toEqual([1, 1, 1, 1]);
    expect(pr.matches).toEqual([{ finding: "NM-1", issue: 0, score: 0.5, by: "location", reason: "1 line apart" }]);
    const s = report.configurations[0]!.summary;
    expect([s.precision, s.recall, s.f1]).toEqual([1, 0.5, 2 / 3]);
    expect(report.judge).toBeUndefined();
    expect(report.warnings).toEqual([]);
  }, 120_000);

  it("warns when real issues name no path: location matching cannot reach them", async () => {
    const root = tempDir("nm-backtest-pathless-");
    const repo = makeRepo(join(root, "clone"));
    const run = async (issues: unknown[]) => {
      writeFileSync(join(root, "golden.json"), JSON.stringify({ "1": issues }));
      const printed: string[] = [];
      const progressed: string[] = [];
      const report = await runBacktest(
        options(repo.dir, join(root, "out"), [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }], {
          golden: join(root, "golden.json"),
          matching: "location",
        }),
        { env: baseEnv(), print: (t) => printed.push(t), progress: (l) => progressed.push(l) },
      );
      expect(progressed).toEqual(expect.arrayContaining(report.warnings));
      expect(printed.join("\n")).toContain(report.warnings.join("\n"));
      return report;
    };
    // The public benchmark's shape: words and a severity, no place.
    const none = await run([{ comment: "tokens[i + 1] is read unchecked", severity: "High" }]);
    expect(none.warnings).toEqual([
      'warning: --match location: none of the golden file\'s 1 real issue names a path, so recall is 0 by construction (the judge, the default, matches by meaning; or give the issues "path" and "line")',
    ]);
    expect(none.configurations[0]!.summary.recall).toBe(0);
    const some = await run([
      { comment: "tokens[i + 1] is read unchecked", severity: "High", path: "src/parser.ts", line: 3 },
      { comment: "x_y is a poor name", severity: "Low" },
    ]);
    expect(some.warnings).toEqual([
      'warning: --match location: 1 of the golden file\'s 2 real issues name no path: they cannot be matched, and count as missed (the judge, the default, matches by meaning; or give the issues "path" and "line")',
    ]);
    expect(some.configurations[0]!.summary.recall).toBe(0.5);
  }, 120_000);
});

describe("assignOneToOne", () => {
  // [finding, issue, score] candidates, and the pairs chosen (computed by hand: every assignment listed).
  it.each([
    {
      // {(0,1)} has the best single score (0.9), but {(0,0),(1,1)} has two pairs.
      name: "as many pairs as possible before the best single score",
      candidates: [
        [0, 0, 0.5],
        [0, 1, 0.9],
        [1, 1, 0.8],
      ],
      chosen: [
        [0, 0],
        [1, 1],
      ],
    },
    {
      // Two pairs either way: {(0,0),(1,1)} totals 0.9 + 0.1 = 1.0, {(0,1),(1,0)} totals 0.8 + 0.7 = 1.5.
      name: "among as many pairs, the largest total score",
      candidates: [
        [0, 0, 0.9],
        [0, 1, 0.8],
        [1, 0, 0.7],
        [1, 1, 0.1],
      ],
      chosen: [
        [0, 1],
        [1, 0],
      ],
    },
    {
      name: "each issue once",
      candidates: [
        [0, 0, 1],
        [1, 0, 1],
        [1, 1, 0.2],
      ],
      chosen: [
        [0, 0],
        [1, 1],
      ],
    },
    {
      // Three findings on two issues: {(0,0),(2,1)} = 1.6 beats {(0,0),(1,1)} = 1.3 and {(1,0),(2,1)} = 1.2.
      name: "a finding left out when it must be",
      candidates: [
        [0, 0, 0.9],
        [1, 0, 0.5],
        [1, 1, 0.4],
        [2, 1, 0.7],
      ],
      chosen: [
        [0, 0],
        [2, 1],
      ],
    },
    {
      // Greedy took (0,0) first and was left with one pair.
      name: "equal scores: two pairs, not one",
      candidates: [
        [0, 0, 1],
        [0, 1, 1],
        [1, 0, 1],
      ],
      chosen: [
        [0, 1],
        [1, 0],
      ],
    },
    {
      name: "a tie for one pair: the earlier issue",
      candidates: [
        [0, 1, 0.6],
        [0, 0, 0.6],
      ],
      chosen: [[0, 0]],
    },
    {
      name: "a tie for one pair: the earlier finding",
      candidates: [
        [1, 0, 0.6],
        [0, 0, 0.6],
      ],
      chosen: [[0, 0]],
    },
    { name: "nothing to pair", candidates: [], chosen: [] },
  ])("$name", ({ candidates, chosen }) => {
    const picked = assignOneToOne(
      candidates.map(([finding, issue, score]) => ({ finding: finding!, issue: issue!, score: score! })),
    );
    expect(picked.map((c) => [c.finding, c.issue])).toEqual(chosen);
  });

  it("gives the same pairs whatever the candidates' order", () => {
    const candidates = [
      { finding: 0, issue: 0, score: 0.9 },
      { finding: 0, issue: 1, score: 0.8 },
      { finding: 1, issue: 0, score: 0.7 },
      { finding: 1, issue: 1, score: 0.1 },
      { finding: 2, issue: 1, score: 0.3 },
    ];
    const once = assignOneToOne(candidates);
    expect(assignOneToOne([...candidates].reverse())).toEqual(once);
    // {(0,0),(2,1)} = 1.2, {(0,1),(1,0)} = 1.5, {(1,0),(2,1)} = 1.0, {(0,0),(1,1)} = 1.0: the 1.5.
    expect(once.map((c) => [c.finding, c.issue])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });
});
