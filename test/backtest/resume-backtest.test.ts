import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BacktestIo } from "../../src/backtest/backtest-io.js";
import type { BacktestOptions } from "../../src/backtest/cli/backtest-options.js";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { createPostgresDatabase, databaseKinds } from "../helpers/test-database.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { BacktestRepo, lines } from "./backtest-repo.js";
import { baseEnv, calls, fakeEnv, JUDGE, makeRepo, options, REVIEWER_A } from "./backtest-world.js";

afterAll(() => removeTempDirs());

/** A's reviewer with the cache PR's review taking a while: long enough to be interrupted in the middle of it. */
const SLOW_A = REVIEWER_A.map((s) => (s.match === "Add cache" ? { ...s, delayMs: 1500 } : s));

function io(onProgress: (line: string) => void = () => {}): BacktestIo & { printed: string[]; progressed: string[] } {
  const printed: string[] = [];
  const progressed: string[] = [];
  return {
    env: baseEnv(),
    print: (t) => printed.push(t),
    progress: (l) => {
      progressed.push(l);
      onProgress(l);
    },
    printed,
    progressed,
  };
}

const prompts = (root: string, name: string, match: string) =>
  calls(root, name).filter((c) => c.prompt.includes(match));

describe.each(await databaseKinds())("backtest interrupted and resumed (%s)", (kind) => {
  it("keeps what finished, reviews nothing twice, and redoes a PR cut off mid-review from a clean run", async () => {
    const root = tempDir("nm-backtest-resume-");
    const repoDir = join(root, "clone");
    makeRepo(repoDir);
    const pg = kind === "postgres" ? await createPostgresDatabase() : undefined;
    try {
      const configurations = [{ label: "A", env: fakeEnv(root, "a", SLOW_A) }];
      const opts = options(repoDir, join(root, "out"), configurations, {
        judgeEnv: fakeEnv(root, "judge", JUDGE),
        ...(pg ? { databaseUrl: pg.url } : {}),
      });

      // 1. Stopped between PRs, once #1 is done.
      const first = new AbortController();
      const one = await runBacktest(opts, {
        ...io((l) => l.startsWith("[1/3]") && first.abort()),
        signal: first.signal,
      });
      expect(one.stopped).toMatch(/^Interrupted: .*rerun the same command to resume/);
      expect(one.configurations[0]!.prs.map((p) => p.prId)).toEqual(["#1"]);
      expect(calls(root, "a")).toHaveLength(1);
      expect(calls(root, "judge")).toHaveLength(4);

      // 2. Resumed, and stopped again in the middle of #2's review.
      const second = new AbortController();
      const two = io((l) => {
        if (l.startsWith("[1/3]")) setTimeout(() => second.abort(), 300);
      });
      const twice = await runBacktest(opts, { ...two, signal: second.signal });
      expect(two.progressed[0]).toBe("A: resuming, 1 PR already reviewed (no agent call for it)");
      expect(twice.stopped).toMatch(/^Interrupted/);
      expect(twice.configurations[0]!.prs.map((p) => p.prId)).toEqual(["#1"]);

      // 3. Resumed to the end.
      const three = io();
      const done = await runBacktest(opts, three);
      expect(done.stopped).toBeUndefined();
      expect(done.configurations[0]!.prs.map((p) => p.prId)).toEqual(["#1", "#2", "#3"]);
      // #1 was reviewed once over three runs, its judge questions asked once (answered from the cache since).
      expect(prompts(root, "a", "Add parser")).toHaveLength(1);
      expect(prompts(root, "a", "Add logger")).toHaveLength(1);
      expect(calls(root, "judge")).toHaveLength(8);
      // #2's cut-off run was dropped: its ledger is the one finished review's, numbered from NM-1.
      const cache = done.configurations[0]!.prs.find((p) => p.prId === "#2")!;
      expect(cache.findings.map((f) => [f.id, f.title])).toEqual([
        ["NM-1", "Race in cache fill"],
        ["NM-2", "Typo"],
      ]);
      // …and its turns are that review's alone (the cancelled turn went with the dropped run).
      const state = JSON.parse(readFileSync(join(root, "out", "state.json"), "utf8"));
      expect(state.configurations.A.prs["#2"].turns).toBe(1);
      const s = done.configurations[0]!.summary;
      expect([s.precision, s.recall]).toEqual([0.75, 0.6]);
    } finally {
      await pg?.drop();
    }
  }, 120_000);
});

describe("backtest within a spend cap", () => {
  it("stops before the PR that would start past the cap, says so in one line, and reports what finished", async () => {
    const root = tempDir("nm-backtest-cap-");
    const repoDir = join(root, "clone");
    makeRepo(repoDir);
    const out = io();
    // #1: $0.10 review + 4 × $0.01 judge = $0.14 (< $0.15: #2 starts); #2 brings it to $0.28: #3 is not started.
    const report = await runBacktest(
      options(repoDir, join(root, "out"), [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }], {
        judgeEnv: fakeEnv(root, "judge", JUDGE),
        maxSpendUsd: 0.15,
      }),
      out,
    );
    expect(report.stopped).toBe(
      "Spend cap reached: $0.28 spent of the $0.15 allowed (--max-spend); 1 review not finished. The report covers what finished; rerun with a higher --max-spend to go on.",
    );
    expect(calls(root, "a")).toHaveLength(2);
    expect(prompts(root, "a", "Add logger")).toHaveLength(0);
    expect(out.printed.join("\n")).toContain("Spend cap reached: $0.28 spent of the $0.15 allowed");
    const json = JSON.parse(readFileSync(join(root, "out", "report.json"), "utf8"));
    expect(json.configurations[0].prs.map((p: { prId: string }) => p.prId)).toEqual(["#1", "#2"]);
    // Scored on the two PRs that finished: 3 of 4 findings real, 3 of 4 real issues found.
    expect([json.configurations[0].summary.precision, json.configurations[0].summary.recall]).toEqual([0.75, 0.75]);
  }, 120_000);

  it("counts the judge too: a rerun judging stored reviews stops at the cap with the same line, and judging from the cache goes on", async () => {
    const root = tempDir("nm-backtest-cap-judge-");
    const repoDir = join(root, "clone");
    makeRepo(repoDir);
    const configurations = [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }];
    // 1. Reviewed without a judge (location matching): 3 × $0.10 spent.
    await runBacktest(options(repoDir, join(root, "out"), configurations, { matching: "location" }), io());
    expect(calls(root, "a")).toHaveLength(3);

    // 2. Rerun with the judge and a cap of $0.33: #1's four questions ($0.04) are asked at $0.30 spent; at $0.34
    // #2's are not (its review is stored, but judging it would be paid).
    const judged = options(repoDir, join(root, "out"), configurations, {
      judgeEnv: fakeEnv(root, "judge", JUDGE),
      maxSpendUsd: 0.33,
    });
    const line =
      "Spend cap reached: $0.34 spent of the $0.33 allowed (--max-spend); 2 reviews not finished. The report covers what finished; rerun with a higher --max-spend to go on.";
    const second = io();
    const report = await runBacktest(judged, second);
    expect(report.stopped).toBe(line);
    expect(second.printed.join("\n")).toContain(line);
    expect(calls(root, "judge")).toHaveLength(4);
    expect(report.configurations[0]!.prs.map((p) => p.prId)).toEqual(["#1"]);

    // 3. The same command again: #1 is judged from the cache (free) and scored; #2 still waits for a higher cap.
    const third = await runBacktest(judged, io());
    expect(third.stopped).toBe(line);
    expect(third.configurations[0]!.prs.map((p) => [p.prId, p.matchedFindings])).toEqual([["#1", 1]]);
    expect(calls(root, "judge")).toHaveLength(4);
    expect(calls(root, "a")).toHaveLength(3);
  }, 120_000);
});

describe("backtest cut off in the middle of a PR's pushes, then run with another configuration", () => {
  it("still counts what the cut-off run's finished pushes cost", async () => {
    const root = tempDir("nm-backtest-cutoff-");
    const repo = new BacktestRepo(join(root, "clone"));
    repo.commit({ "src/app.ts": lines("app", 20) }, "app");
    repo.git("checkout", "-q", "-b", "feature");
    repo.commit({ "src/app.ts": lines("app", 20, { 3: "first();" }) }, "first");
    repo.commit({ "src/app.ts": lines("app", 20, { 3: "first();", 9: "second();" }) }, "second");
    repo.git("checkout", "-q", "main");
    writeFileSync(join(root, "pairs.json"), JSON.stringify([{ base: "main", head: "feature", pr: 7 }]));
    const answer = { summary: "Nothing.", findings: [], resolved: [] };
    const run = (reviewer: unknown[], extra: Partial<BacktestOptions>, signal?: AbortSignal) =>
      runBacktest(
        options(repo.dir, join(root, "out"), [{ label: "A", env: fakeEnv(root, "a", reviewer) }], {
          golden: undefined,
          pairs: join(root, "pairs.json"),
          replay: true,
          matching: "location",
          ...extra,
        }),
        { ...io(), ...(signal ? { signal } : {}) },
      );

    // 1. The first push's review costs $0.10; the second's is cut off (the fake agent logs a call as it ends).
    const stop = new AbortController();
    const watch = setInterval(() => calls(root, "a").length > 0 && stop.abort(), 50);
    const slow = [
      { role: "reviewer", times: 1, costUsd: 0.1, answer },
      { role: "reviewer", costUsd: 0.1, delayMs: 30_000, answer },
    ];
    const cut = await run(slow, {}, stop.signal).finally(() => clearInterval(watch));
    expect(cut.stopped).toMatch(/^Interrupted/);

    // 2. Another reviewer (another configuration), under a cap of $0.05: the $0.10 is spent all the same.
    const next = await run([{ role: "reviewer", costUsd: 0.1, answer }], { maxSpendUsd: 0.05 });
    expect(next.stopped).toMatch(/^Spend cap reached: \$0\.10 spent of the \$0\.0500 allowed/);
    expect(next.spentUsd).toBeCloseTo(0.1, 9);
  }, 120_000);
});
