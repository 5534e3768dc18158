import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { assignOneToOne } from "../../src/backtest/assign-one-to-one.js";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { BacktestRepo, lines } from "./backtest-repo.js";
import { baseEnv, calls, fakeEnv, options } from "./backtest-world.js";

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
  }, 120_000);
});

describe("assignOneToOne", () => {
  it.each([
    {
      name: "best score first",
      candidates: [
        [0, 0, 0.5],
        [0, 1, 0.9],
        [1, 1, 0.8],
      ],
      chosen: [[0, 1]],
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
      name: "ties: the earlier finding, then the earlier issue",
      candidates: [
        [1, 0, 1],
        [0, 1, 1],
        [0, 0, 1],
      ],
      chosen: [[0, 0]],
    },
  ])("$name", ({ candidates, chosen }) => {
    const picked = assignOneToOne(
      candidates.map(([finding, issue, score]) => ({ finding: finding!, issue: issue!, score: score! })),
    );
    expect(picked.map((c) => [c.finding, c.issue])).toEqual(chosen);
  });
});
