import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseBacktestArgs } from "../../src/backtest/parse-backtest-args.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { fakeEnv, GOLDEN_FIXTURE, JUDGE, makeRepo, REVIEWER_A, REVIEWER_B } from "./backtest-world.js";

afterAll(() => removeTempDirs());

const ROOT = join(import.meta.dirname, "..", "..");

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(
    join(ROOT, "node_modules", ".bin", "tsx"),
    [join(ROOT, "src", "backtest", "run-backtest-cli.ts"), ...args],
    {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 120_000,
      env: { PATH: process.env.PATH, HOME: tempDir("nm-backtest-home-"), AGENT_SANDBOX: "off", ...env },
    },
  );
}

const flags = (name: string, env: Record<string, string>) =>
  Object.entries(env).flatMap(([k, v]) => [name, `${k}=${v}`]);

describe("npm run backtest", () => {
  it("prints precision, recall, cost and time per configuration and B − A, and exits 0", () => {
    const root = tempDir("nm-backtest-cli-");
    makeRepo(join(root, "clone"));
    const a = fakeEnv(root, "a", REVIEWER_A);
    const b = fakeEnv(root, "b", REVIEWER_B);
    const run = cli([
      "--repo",
      join(root, "clone"),
      "--golden",
      GOLDEN_FIXTURE,
      "--out",
      join(root, "out"),
      ...flags("--env", a),
      "--b-env",
      `FAKE_AGENT_SCENARIO=${b.FAKE_AGENT_SCENARIO}`,
      "--b-env",
      `FAKE_AGENT_LOG=${b.FAKE_AGENT_LOG}`,
      ...flags("--judge-env", fakeEnv(root, "judge", JUDGE)),
    ]);
    expect(run.stderr).toMatch(/^\[6\/6\] #3 B: 1 finding, \$0\.30/m);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/precision\s+0\.750 \(3\/4\)\s+1\.000 \(3\/3\)\s+\+0\.250 \[\+0\.000, \+0\.500\]/);
    expect(run.stdout).toMatch(/recall\s+0\.600 \(3\/5\)\s+0\.600 \(3\/5\)/);
    expect(run.stdout).toMatch(/cost per PR\s+\$0\.10\s+\$0\.30\s+\+\$0\.20/);
    expect(run.stdout).toMatch(/time per PR\s+\d+\.\ds\s+\d+\.\ds/);
  }, 150_000);

  it("says what is wrong with the command line, with the usage, and exits 1", () => {
    const run = cli(["--golden", "g.json", "--max-spend", "lots", "--match", "vibes"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("--repo: the local clone to backtest is required");
    expect(run.stderr).toContain('--max-spend: "lots" is not an amount of dollars');
    expect(run.stderr).toContain('--match: "vibes" is neither judge nor location');
    expect(run.stderr).toContain("Usage: npm run backtest");
  }, 60_000);
});

describe("parseBacktestArgs", () => {
  it("builds A from the flags and B from A with its own over it", () => {
    const options = parseBacktestArgs(
      [
        "--repo",
        "r",
        "--merges",
        "--limit",
        "20",
        "--model",
        "m1",
        "--env",
        "AGENT_ARGS=--x",
        "--b-model",
        "m2",
        "--b-config",
        "b.yml",
        "--max-spend",
        "12.5",
      ],
      {},
    );
    expect(options).toMatchObject({
      repo: "r",
      merges: true,
      limit: 20,
      maxSpendUsd: 12.5,
      matching: "judge",
      configurations: [
        { label: "A", env: { AGENT_ARGS: "--x", AGENT_MODEL: "m1" } },
        { label: "B", env: { AGENT_ARGS: "--x", AGENT_MODEL: "m2" }, configFile: "b.yml" },
      ],
    });
  });
  it("takes extra instructions per configuration; B keeps A's unless it has its own", () => {
    const parsed = (...args: string[]) => parseBacktestArgs(["--repo", "r", "--merges", ...args], {});
    expect(parsed("--b-instructions", "v.md")).toMatchObject({
      configurations: [{ label: "A" }, { label: "B", instructionsFile: "v.md" }],
    });
    expect(parsed("--b-instructions", "v.md")).not.toHaveProperty("configurations.0.instructionsFile");
    expect(parsed("--instructions", "a.md", "--b-model", "m2")).toMatchObject({
      configurations: [{ instructionsFile: "a.md" }, { instructionsFile: "a.md", env: { AGENT_MODEL: "m2" } }],
    });
  });
  it("takes a database of the backtest's own from BACKTEST_DATABASE_URL, never DATABASE_URL", () => {
    const parsed = (env: NodeJS.ProcessEnv) => parseBacktestArgs(["--repo", "r", "--merges"], env);
    expect(parsed({ DATABASE_URL: "postgres://prod/app" })).not.toHaveProperty("databaseUrl");
    expect(parsed({ BACKTEST_DATABASE_URL: "postgres://localhost/bt" })).toMatchObject({
      databaseUrl: "postgres://localhost/bt",
    });
  });
});
