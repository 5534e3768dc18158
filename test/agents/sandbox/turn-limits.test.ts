import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import { BubblewrapSandbox } from "../../../src/agents/sandbox/bubblewrap-sandbox.js";
import { turnCgroupPrefix } from "../../../src/agents/sandbox/turn-cgroup.js";
import type { TurnLimits } from "../../../src/config/env/turn-limits.js";
import { classifyFailure } from "../../../src/pipeline/job/classify-failure.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

/**
 * The model does what the PR says, so a turn may fork-bomb, eat memory or fill the disk. Each runs
 * in the real sandbox with small limits; it must end that turn with the limit named, while a turn
 * beside it finishes, and leave the test process able to spawn and no cgroup behind.
 */

const LIMITS: TurnLimits = { maxProcesses: 64, maxMemoryMb: 128, maxFileMb: 8, maxWorkspaceMb: 32 };
const sandbox = new BubblewrapSandbox({ limits: LIMITS });
/** As on a host that offers no writable cgroup: the watchdog counts and measures from /proc. */
const procOnly = new BubblewrapSandbox({ limits: LIMITS, cgroups: false });

afterAll(() => removeTempDirs());

function turn(script: string, on: BubblewrapSandbox = sandbox) {
  const root = tempDir("nm-limits-");
  const workspace = join(root, "ws");
  const home = join(root, "home");
  mkdirSync(workspace);
  mkdirSync(home);
  return on.run({
    command: "/bin/sh",
    args: ["-c", script],
    workspace,
    writable: true,
    home,
    runtime: [],
    env: { PATH: "/usr/bin:/bin" },
    stdin: "",
    timeoutMs: 120_000,
    killGraceMs: 500,
    model: {
      upstream: "http://127.0.0.1:9",
      policy: { api: "anthropic", models: [], maxOutputTokens: 1, serverTools: false },
    },
  });
}

/** The app's own pids and memory cgroups (v1) or its unified group (v2), where turn cgroups are made. */
function ownCgroupDirs(): string[] {
  const lines = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  const dirs: string[] = [];
  for (const line of lines) {
    const [, controllers, path] = line.split(":");
    if (controllers === "pids") dirs.push(join("/sys/fs/cgroup/pids", path!));
    if (controllers === "memory") dirs.push(join("/sys/fs/cgroup/memory", path!));
    if (controllers === "" && existsSync("/sys/fs/cgroup/cgroup.controllers")) dirs.push(join("/sys/fs/cgroup", path!));
  }
  return dirs.filter((dir) => existsSync(dir));
}

/**
 * The turn cgroups this test process made: another no-mistakes turn on the same host (a second test file, a
 * running app) has groups of its own beside them.
 */
function turnCgroups(): string[] {
  return ownCgroupDirs().flatMap((dir) => readdirSync(dir).filter((name) => name.startsWith(turnCgroupPrefix())));
}

async function expectStopped(script: string, reason: string, on: BubblewrapSandbox = sandbox): Promise<void> {
  const neighbour = turn("sleep 2; echo neighbour-done");
  const error = await turn(script, on).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentError);
  expect((error as AgentError).kind).toBe("limit");
  expect((error as AgentError).message).toContain(reason);
  const check = classifyFailure(error);
  expect(check.retry).toBe(false);
  expect(check.detail).toBe(`the agent turn was stopped: ${(error as AgentError).message.split(": ")[1]}`);
  const other = await neighbour;
  expect(other.exitCode).toBe(0);
  expect(other.stdout.trim()).toBe("neighbour-done");
  expect(spawnSync("/bin/true").status).toBe(0);
  expect(turnCgroups()).toEqual([]);
}

describe("per-turn resource limits (real bwrap)", () => {
  it("a fork bomb ends the turn: more than AGENT_MAX_PROCESSES processes", async () => {
    await expectStopped("f() { f | f & }; f; sleep 60", "it started more than 64 processes (AGENT_MAX_PROCESSES)");
  }, 60_000);

  it("a memory hog ends the turn: more than AGENT_MAX_MEMORY_MB", async () => {
    await expectStopped(
      "head -c 2000m /dev/zero | tail -c 1500m > /dev/null; sleep 60",
      "it used more than 128 MB of memory (AGENT_MAX_MEMORY_MB)",
    );
  }, 60_000);

  it("a file written past the cap ends the turn: AGENT_MAX_FILE_MB", async () => {
    await expectStopped(
      "dd if=/dev/zero of=big bs=1M count=64 2>/dev/null; sleep 60",
      "it wrote a file of 8 MB or more (AGENT_MAX_FILE_MB)",
    );
  }, 60_000);

  it("many files under the cap, filling the writable workspace, end the turn: AGENT_MAX_WORKSPACE_MB", async () => {
    await expectStopped(
      "i=0; while [ $i -lt 200 ]; do dd if=/dev/zero of=f$i bs=1M count=1 2>/dev/null; i=$((i+1)); done; sleep 60",
      "it added more than 32 MB to its workspace (AGENT_MAX_WORKSPACE_MB)",
    );
  }, 60_000);

  it("a turn within the limits runs as before (a few processes, some memory, a file)", async () => {
    const result = await turn(
      "for i in 1 2 3 4 5; do (echo $i > n$i) & done; wait; head -c 20m /dev/zero | tail -c 10m | wc -c; dd if=/dev/zero of=ok bs=1M count=4 2>/dev/null; cat n1",
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n").map((l) => l.trim())).toEqual(["10485760", "1", ""]);
    expect(turnCgroups()).toEqual([]);
  }, 60_000);

  it("the sandbox's /tmp is a tmpfs bounded at AGENT_MAX_FILE_MB: files under the cap cannot fill memory there", async () => {
    const result = await turn(
      "i=0; while [ $i -lt 12 ]; do dd if=/dev/zero of=/tmp/f$i bs=1M count=1 2>/dev/null || break; i=$((i+1)); done; echo $i; df -k /tmp | tail -n 1",
    );
    const [written, df] = result.stdout.trim().split("\n");
    expect(Number(written)).toBeLessThan(12); // the ninth 1 MB file does not fit in 8 MB
    expect(df).toMatch(/^tmpfs\s+8192\s/);
  }, 60_000);
});

describe("turn cgroups on a shared host", () => {
  it("another process's turn cgroups beside this one's are neither counted as this process's nor touched", async () => {
    const foreign = ownCgroupDirs().map((dir) => join(dir, `${turnCgroupPrefix(process.pid + 100_000)}0123456789ab`));
    const made = foreign.filter((dir) => {
      try {
        mkdirSync(dir);
        return true;
      } catch {
        return false; // this host lets no one make a group here: nothing to share
      }
    });
    try {
      await expectStopped("f() { f | f & }; f; sleep 60", "it started more than 64 processes (AGENT_MAX_PROCESSES)");
      for (const dir of made) expect(existsSync(dir)).toBe(true);
    } finally {
      for (const dir of made) rmdirSync(dir);
    }
  }, 60_000);
});

describe("per-turn resource limits where the host offers no cgroup (real bwrap, /proc watchdog)", () => {
  it("more processes than AGENT_MAX_PROCESSES end the turn", async () => {
    await expectStopped(
      "i=0; while [ $i -lt 200 ]; do sleep 60 & i=$((i+1)); done; sleep 60",
      "it started more than 64 processes (AGENT_MAX_PROCESSES)",
      procOnly,
    );
  }, 60_000);

  it("a memory hog ends the turn", async () => {
    await expectStopped(
      "head -c 2000m /dev/zero | tail -c 1500m > /dev/null; sleep 60",
      "it used more than 128 MB of memory (AGENT_MAX_MEMORY_MB)",
      procOnly,
    );
  }, 60_000);
});
