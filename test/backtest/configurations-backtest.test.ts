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
    // B's reviewer answers the cache PR twice without JSON ($0.50, then $0.25 for the repair): a paid, failed review.
    const failing = [
      ...REVIEWER_A.map((s) =>
        s.match === "Add cache" ? { ...s, answer: undefined, text: "no JSON here", costUsd: 0.5, times: 1 } : s,
      ),
      { role: "reviewer", text: "still no JSON", costUsd: 0.25, times: 1 },
    ];
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
    // B's first prompts carry its own instructions (a repair prompt carries none); none carries the clone's.
    const b = calls(root, "b");
    expect(b.filter((c) => /title: Add /.test(c.prompt)).map((c) => c.prompt.includes("VARIANT-RULES"))).toEqual([
      true,
      true,
      true,
    ]);
    expect(b.some((c) => c.prompt.includes("CLONE-RULES"))).toBe(false);
    expect(calls(root, "b")).toHaveLength(4);

    const [team, variant] = report.configurations;
    expect(team!.describe).toBe("fake, the clone's .github/no-mistakes.yml");
    expect(variant!.describe).toBe(`fake, config ${join(root, "variant.yml")}`);
    expect(variant!.failures).toEqual([
      { prId: "#2", error: expect.stringContaining("The reviewer's answer could not be read") },
    ]);
    expect(variant!.prs.map((p) => p.prId)).toEqual(["#1", "#3"]);
    // The comparison holds only the PRs both finished.
    expect(report.comparison!.prs).toBe(2);
    // What the failed review cost counts: A 3 × $0.10, B 2 × $0.10 + $0.75, the judge 4 + 4 + 0 + 0 questions × $0.01
    // (B's findings are A's: answered from the cache).
    expect(report.spentUsd).toBeCloseTo(0.3 + 0.2 + 0.75 + 0.08, 10);
  }, 120_000);
});

describe("backtest of a prompt variant: extra reviewer instructions from a file", () => {
  it("gives B the clone's instructions and its own after them, A the clone's alone; an edited file reviews B again", async () => {
    const root = tempDir("nm-backtest-instructions-");
    const repo = makeRepo(join(root, "clone"));
    repo.commit({ ".github/no-mistakes.yml": 'review:\n  instructions: "CLONE-RULES apply"\n' }, "config");
    const variant = join(root, "variant.md");
    writeFileSync(variant, "EXTRA-RULES-ONE: flag every unchecked index.\n");
    const run = async () => {
      const progressed: string[] = [];
      const report = await runBacktest(
        options(
          repo.dir,
          join(root, "out"),
          [
            { label: "team", env: fakeEnv(root, "a", REVIEWER_A) },
            { label: "variant", env: fakeEnv(root, "b", REVIEWER_A), instructionsFile: variant },
          ],
          { matching: "location" },
        ),
        { env: baseEnv(), print: () => {}, progress: (l) => progressed.push(l) },
      );
      return { report, progressed };
    };
    const rules = (name: string) =>
      calls(root, name).map((c) => (c.prompt.match(/CLONE-RULES|EXTRA-RULES-\w+/g) ?? []).join(" then "));

    const { report } = await run();
    expect(rules("a")).toEqual(["CLONE-RULES", "CLONE-RULES", "CLONE-RULES"]);
    expect(rules("b")).toEqual(Array(3).fill("CLONE-RULES then EXTRA-RULES-ONE"));
    expect(report.configurations[1]!.describe).toBe(
      `fake, the clone's .github/no-mistakes.yml, instructions ${variant}`,
    );

    writeFileSync(variant, "EXTRA-RULES-TWO: flag every unchecked index.\n");
    const { progressed } = await run();
    expect(progressed).toContain("team: resuming, 3 PRs already reviewed (no agent call for them)");
    expect(progressed).toContain(
      "variant: the configuration changed since the last run; its 3 earlier results set aside",
    );
    expect(calls(root, "a")).toHaveLength(3);
    expect(rules("b").slice(3)).toEqual(Array(3).fill("CLONE-RULES then EXTRA-RULES-TWO"));
  }, 120_000);
});

describe("backtest started from the app's production .env", () => {
  it("leaves out what only the GitHub App needs, for the reviewers and the judge alike", async () => {
    const root = tempDir("nm-backtest-production-");
    makeRepo(join(root, "clone"));
    // As `npm start` runs in production: NODE_ENV=production, the App's id and secret (its key file elsewhere).
    const env = { ...baseEnv(), NODE_ENV: "production", APP_ID: "12345", WEBHOOK_SECRET: "whsec-backtest-test" };
    const report = await runBacktest(
      options(join(root, "clone"), join(root, "out"), [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }], {
        judgeEnv: { ...fakeEnv(root, "judge", JUDGE), NODE_ENV: "production" },
      }),
      { env, print: () => {}, progress: () => {} },
    );
    expect(report.configurations[0]!.failures).toEqual([]);
    expect(report.judge).toMatchObject({ asked: 8 });
    expect([report.configurations[0]!.summary.precision, report.configurations[0]!.summary.recall]).toEqual([
      0.75, 0.6,
    ]);
  }, 120_000);
});

describe("backtest whose judge fails on a PR", () => {
  it("keeps the review, leaves the PR unscored, and a rerun asks only the questions not yet answered", async () => {
    const root = tempDir("nm-backtest-judge-");
    makeRepo(join(root, "clone"));
    const no = (finding: string) => ({
      role: "verifier",
      match: finding,
      answer: { same: false, confidence: 1, reason: "no" },
    });
    // Only the parser's questions have answers: the cache PR's first question finds no step (the agent fails).
    const partial = [JUDGE[0]!, no("Unchecked index"), no("Naming")];
    const configurations = [{ label: "A", env: fakeEnv(root, "a", REVIEWER_A) }];
    const first = await runBacktest(
      options(join(root, "clone"), join(root, "out"), configurations, { judgeEnv: fakeEnv(root, "judge1", partial) }),
      { env: baseEnv(), print: () => {}, progress: () => {} },
    );
    expect(first.configurations[0]!.failures).toEqual([
      { prId: "#2", error: expect.stringMatching(/^judging failed: fake agent: no scenario step matches/) },
    ]);
    expect(first.configurations[0]!.prs.map((p) => p.prId)).toEqual(["#1", "#3"]);
    expect(calls(root, "judge1")).toHaveLength(4);

    const second = await runBacktest(
      options(join(root, "clone"), join(root, "out"), configurations, { judgeEnv: fakeEnv(root, "judge2", JUDGE) }),
      { env: baseEnv(), print: () => {}, progress: () => {} },
    );
    expect(second.configurations[0]!.failures).toEqual([]);
    expect(calls(root, "a")).toHaveLength(3); // no review again
    expect(calls(root, "judge2")).toHaveLength(4); // only the cache PR's four questions
    expect([second.configurations[0]!.summary.precision, second.configurations[0]!.summary.recall]).toEqual([
      0.75, 0.6,
    ]);
  }, 120_000);
});
