import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBacktest } from "../../src/backtest/run-backtest.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { baseEnv, calls, fakeEnv, JUDGE, makeRepo, options, REVIEWER_A } from "./backtest-world.js";

afterAll(() => removeTempDirs());

describe("backtest configurations", () => {
  it("reviews with the clone's .github/no-mistakes.yml, or the configuration's own file instead; a failed review is reported, not scored", async () => {
    const root = tempDir("nm-backtest-config-");
    const repo = makeRepo(join(root, "clone"));
    repo.commit({ ".github/no-mistakes.yml": 'review:\n  instructions: "CLONE-RULES apply"\n' }, "config");
    writeFileSync(join(root, "variant.yml"), 'review:\n  instructions: "VARIANT-RULES apply"\n');
    // B's reviewer fails on the cache PR (the agent exits 1).
    const failing = REVIEWER_A.map((s) => (s.match === "Add cache" ? { ...s, answer: undefined, exitCode: 1 } : s));
    const report = await runBacktest(
      options(
        join(root, "clone"),
        join(root, "out"),
        [
          { label: "team", env: fakeEnv(root, "a", REVIEWER_A) },
          { label: "variant", env: fakeEnv(root, "b", failing), configFile: join(root, "variant.yml") },
        ],
        { judgeEnv: fakeEnv(root, "judge", JUDGE) },
      ),
      { env: baseEnv(), print: () => {}, progress: () => {} },
    );
    expect(calls(root, "a").every((c) => c.prompt.includes("CLONE-RULES") && !c.prompt.includes("VARIANT-RULES"))).toBe(
      true,
    );
    expect(calls(root, "b").every((c) => c.prompt.includes("VARIANT-RULES") && !c.prompt.includes("CLONE-RULES"))).toBe(
      true,
    );
    expect(calls(root, "b")).toHaveLength(2);

    const [team, variant] = report.configurations;
    expect(team!.describe).toBe("fake, the clone's .github/no-mistakes.yml");
    expect(variant!.describe).toBe(`fake, config ${join(root, "variant.yml")}`);
    expect(variant!.failures).toEqual([{ prId: "#2", error: expect.stringContaining("#2 at ") }]);
    expect(variant!.prs.map((p) => p.prId)).toEqual(["#1", "#3"]);
    // The comparison holds only the PRs both finished.
    expect(report.comparison!.prs).toBe(2);
  }, 120_000);
});
