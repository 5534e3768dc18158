import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseBacktestArgs } from "../../../src/backtest/cli/parse-backtest-args.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { fakeEnv, GOLDEN_FIXTURE, JUDGE, makeRepo, REVIEWER_A, REVIEWER_B } from "../backtest-world.js";

afterAll(() => removeTempDirs());

const ROOT = join(import.meta.dirname, "..", "..", "..");

/** `npm run backtest`'s command: node with tsx's loader, one process. */
const COMMAND = [process.execPath, ["--import", "tsx", join(ROOT, "src", "backtest", "run-backtest-cli.ts")]] as const;

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(COMMAND[0], [...COMMAND[1], ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
    env: { PATH: process.env.PATH, HOME: tempDir("nm-backtest-home-"), AGENT_SANDBOX: "off", ...env },
  });
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

  it("exits 3 when the spend cap stops it, after the report and the line saying so", () => {
    const root = tempDir("nm-backtest-cli-");
    makeRepo(join(root, "clone"));
    const run = cli([
      "--repo",
      join(root, "clone"),
      "--golden",
      GOLDEN_FIXTURE,
      "--out",
      join(root, "out"),
      "--max-spend",
      "0",
      ...flags("--env", fakeEnv(root, "a", REVIEWER_A)),
      ...flags("--judge-env", fakeEnv(root, "judge", JUDGE)),
    ]);
    expect(run.stdout).toContain(
      "Spend cap reached: $0.00 spent of the $0.00 allowed (--max-spend); 3 reviews not finished.",
    );
    expect(run.status).toBe(3);
  }, 60_000);

  it("counts what set-aside reviews cost against --max-spend and in the total: a config change gives nothing back", () => {
    const root = tempDir("nm-backtest-cli-");
    makeRepo(join(root, "clone"));
    const config = join(root, "no-mistakes.yml");
    const args = (...extra: string[]) => [
      "--repo",
      join(root, "clone"),
      "--golden",
      GOLDEN_FIXTURE,
      "--out",
      join(root, "out"),
      "--match",
      "location",
      "--config",
      config,
      ...flags("--env", fakeEnv(root, "a", REVIEWER_A)),
      ...extra,
    ];
    writeFileSync(config, 'review:\n  instructions: "one"\n');
    const first = cli(args());
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("spent $0.30 in all");

    // Another config: the three stored reviews ($0.30) are set aside, and what they cost still counts. With
    // $0.30 spent and $0.10 a review, the cap of $0.45 lets two more start, not three.
    writeFileSync(config, 'review:\n  instructions: "two"\n');
    const second = cli(args("--max-spend", "0.45"));
    expect(second.stderr).toContain("A: the configuration changed since the last run; its 3 earlier results set aside");
    expect(second.stdout).toContain(
      "Spend cap reached: $0.50 spent of the $0.45 allowed (--max-spend); 1 review not finished.",
    );
    expect(second.stdout).toContain("spent $0.50 in all");
    expect(second.status).toBe(3);
  }, 150_000);

  it("exits 3 when Ctrl-C stops it, keeping what finished", async () => {
    const root = tempDir("nm-backtest-cli-");
    makeRepo(join(root, "clone"));
    // The cache PR's review takes a while: Ctrl-C comes while it runs, once the first PR is done.
    const slow = REVIEWER_A.map((s) => (s.match === "Add cache" ? { ...s, delayMs: 30_000 } : s));
    const child = spawn(
      COMMAND[0],
      [
        ...COMMAND[1],
        "--repo",
        join(root, "clone"),
        "--golden",
        GOLDEN_FIXTURE,
        "--out",
        join(root, "out"),
        ...flags("--env", fakeEnv(root, "a", slow)),
        ...flags("--judge-env", fakeEnv(root, "judge", JUDGE)),
      ],
      // A process group of its own, as a terminal's foreground job: Ctrl-C signals the whole group.
      {
        cwd: ROOT,
        detached: true,
        env: { PATH: process.env.PATH, HOME: tempDir("nm-backtest-home-"), AGENT_SANDBOX: "off" },
      },
    );
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    child.stdout.on("data", (d: Buffer) => (stdout += String(d)));
    child.stderr.on("data", (d: Buffer) => {
      stderr += String(d);
      if (/^\[1\/3\]/m.test(stderr) && !interrupted) {
        interrupted = true;
        process.kill(-child.pid!, "SIGINT");
      }
    });
    const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    expect(stderr).toContain("stopping: the review in progress is abandoned; finished PRs are kept");
    expect(stdout).toContain("Interrupted: the report covers what finished; rerun the same command to resume");
    expect(stdout).toMatch(/PRs reviewed\s+1\n/);
    expect(status).toBe(3);
  }, 90_000);

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
