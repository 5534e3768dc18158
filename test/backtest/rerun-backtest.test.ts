import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BacktestOptions } from "../../src/backtest/cli/backtest-options.js";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { baseEnv, calls, fakeEnv, makeRepo, options, REVIEWER_A } from "./backtest-world.js";

afterAll(() => removeTempDirs());

describe("backtest rerun after what the reviews depend on changed", () => {
  it("reuses a stored review only while the config it read, the flags and the PR's commits are the same", async () => {
    const root = tempDir("nm-backtest-rerun-");
    const repo = makeRepo(join(root, "clone"));
    repo.commit({ ".github/no-mistakes.yml": 'review:\n  instructions: "RULES-ONE apply"\n' }, "config");
    // PR #1 of the history (the parser), named by its commits in a pairs file, with its one real issue.
    const base = repo.sha("main~3^1");
    const head = repo.sha("main~3^2");
    const merge = repo.sha("main~3");
    const pairs = (h: string) =>
      writeFileSync(join(root, "pairs.json"), JSON.stringify([{ base, head: h, pr: 1, title: "Add parser" }]));
    pairs(head);
    writeFileSync(
      join(root, "golden.json"),
      JSON.stringify({ "1": [{ comment: "unchecked index", severity: "high", path: "src/parser.ts", line: 3 }] }),
    );
    const configurations = [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }];
    const run = async (extra: Partial<BacktestOptions> = {}) => {
      const progressed: string[] = [];
      const report = await runBacktest(
        options(repo.dir, join(root, "out"), configurations, {
          golden: join(root, "golden.json"),
          pairs: join(root, "pairs.json"),
          matching: "location",
          ...extra,
        }),
        { env: baseEnv(), print: () => {}, progress: (l) => progressed.push(l) },
      );
      expect(report.configurations[0]!.failures).toEqual([]);
      return progressed;
    };
    const reviews = () => calls(root, "a").map((c) => /RULES-\w+/.exec(c.prompt)?.[0]);

    // 1. Reviewed once; the same command again reuses it.
    await run();
    expect(await run()).toContain("A: resuming, 1 PR already reviewed (no agent call for it)");
    expect(reviews()).toEqual(["RULES-ONE"]);

    // 2. The team edits its .github/no-mistakes.yml on the branch the backtest reads: the old review is set aside.
    repo.commit({ ".github/no-mistakes.yml": 'review:\n  instructions: "RULES-TWO apply"\n' }, "stricter config");
    expect(await run()).toContain("A: the configuration changed since the last run; its 1 earlier result set aside");
    expect(reviews()).toEqual(["RULES-ONE", "RULES-TWO"]);

    // 3. --replay, --max-pushes and --branch each change what a review is.
    await run({ replay: true });
    await run({ replay: true, maxPushes: 1 });
    await run({ replay: true, maxPushes: 1, branch: "main" });
    expect(reviews()).toEqual(["RULES-ONE", "RULES-TWO", "RULES-TWO", "RULES-TWO", "RULES-TWO"]);
    expect(await run({ replay: true, maxPushes: 1, branch: "main" })).toContain(
      "A: resuming, 1 PR already reviewed (no agent call for it)",
    );

    // 4. The same PR id at other commits (the pairs file now names the merge as the head): reviewed again.
    pairs(merge);
    expect(await run({ replay: true, maxPushes: 1, branch: "main" })).toContain(
      "A #1: its commits are not those of the stored review; reviewed again",
    );
    expect(reviews()).toHaveLength(6);
  }, 120_000);
});
