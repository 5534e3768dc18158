import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import { buildAgentEnv } from "../../../src/agents/process/build-agent-env.js";
import { runAgentProcess, type AgentProcessOptions } from "../../../src/agents/process/run-agent-process.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const env = buildAgentEnv({});

function script(dir: string, name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A child that starts a grandchild (same process group) which ignores SIGTERM, writes both pids to
 * a file, and then sleeps forever (ignoring SIGTERM too when asked).
 */
function treeScript(
  dir: string,
  ignoreTerm: boolean,
): { options: Omit<AgentProcessOptions, "timeoutMs">; pidsFile: string } {
  const pidsFile = join(dir, "pids.json");
  const grandchild = script(dir, "grandchild.cjs", `process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);`);
  const child = script(
    dir,
    "child.cjs",
    `const { spawn } = require("node:child_process");
     const fs = require("node:fs");
     ${ignoreTerm ? `process.on("SIGTERM", () => {});` : ""}
     const g = spawn(process.execPath, [${JSON.stringify(grandchild)}], { stdio: "ignore" });
     fs.writeFileSync(${JSON.stringify(pidsFile)}, JSON.stringify({ child: process.pid, grandchild: g.pid }));
     console.log("started");
     setInterval(() => {}, 1000);`,
  );
  return {
    options: { command: process.execPath, args: [child], cwd: dir, env, stdin: "", killGraceMs: 300 },
    pidsFile,
  };
}

describe("runAgentProcess", () => {
  it("runs a command, feeds stdin and closes it, and reports exit code and output", async () => {
    const dir = tempDir();
    const cat = script(
      dir,
      "echo.cjs",
      `let s = ""; process.stdin.on("data", (d) => (s += d)); process.stdin.on("end", () => { process.stdout.write("got:" + s); process.stderr.write("err"); process.exit(3); });`,
    );
    const result = await runAgentProcess({
      command: process.execPath,
      args: [cat],
      cwd: dir,
      env,
      stdin: "hello\nworld",
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: "got:hello\nworld",
      stderr: "err",
      timedOut: false,
      cancelled: false,
      truncated: false,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("runs in the given cwd with exactly the given environment", async () => {
    const dir = tempDir();
    const show = script(dir, "env.cjs", `console.log(JSON.stringify({ cwd: process.cwd(), env: process.env }));`);
    const result = await runAgentProcess({
      command: process.execPath,
      args: [show],
      cwd: dir,
      env: { ...env, ONLY_THIS: "1" },
      stdin: "",
      timeoutMs: 10_000,
    });
    const out = JSON.parse(result.stdout) as { cwd: string; env: Record<string, string> };
    expect(out.env.ONLY_THIS).toBe("1");
    expect(Object.keys(out.env).sort()).toEqual(Object.keys({ ...env, ONLY_THIS: "1" }).sort());
  });

  it("kills the whole process tree on timeout, grandchild included, even when both ignore SIGTERM", async () => {
    const dir = tempDir();
    const { options, pidsFile } = treeScript(dir, true);
    const result = await runAgentProcess({ ...options, timeoutMs: 1000 }); // ends only by SIGKILL: both ignore SIGTERM
    expect(result.timedOut).toBe(true);
    expect(result.cancelled).toBe(false);
    expect(result.signal).toBe("SIGKILL");
    expect(result.stdout).toContain("started");
    const pids = JSON.parse(readFileSync(pidsFile, "utf8")) as { child: number; grandchild: number };
    await waitFor(() => !alive(pids.child) && !alive(pids.grandchild), 2000);
  });

  it("kills the tree with SIGTERM when the child obeys it, and the grandchild that ignores it dies too", async () => {
    const dir = tempDir();
    const { options, pidsFile } = treeScript(dir, false);
    const result = await runAgentProcess({ ...options, timeoutMs: 800, killGraceMs: 10_000 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGTERM");
    expect(result.durationMs).toBeLessThan(5000); // did not wait for the 10 s grace
    const pids = JSON.parse(readFileSync(pidsFile, "utf8")) as { child: number; grandchild: number };
    await waitFor(() => !alive(pids.child) && !alive(pids.grandchild), 2000);
  });

  it("kills the tree when the signal aborts, and reports cancelled", async () => {
    const dir = tempDir();
    const { options, pidsFile } = treeScript(dir, true);
    const controller = new AbortController();
    const pending = runAgentProcess({ ...options, timeoutMs: 30_000, signal: controller.signal });
    await waitFor(() => existsSync(pidsFile) && readFileSync(pidsFile, "utf8").length > 0);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ cancelled: true, timedOut: false });
    const pids = JSON.parse(readFileSync(pidsFile, "utf8")) as { child: number; grandchild: number };
    await waitFor(() => !alive(pids.child) && !alive(pids.grandchild), 2000);
  });

  it("does not start at all when the signal is already aborted", async () => {
    const dir = tempDir();
    const marker = join(dir, "ran");
    const touch = script(dir, "touch.cjs", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "x");`);
    const controller = new AbortController();
    controller.abort();
    const result = await runAgentProcess({
      command: process.execPath,
      args: [touch],
      cwd: dir,
      env,
      stdin: "",
      timeoutMs: 5000,
      signal: controller.signal,
    });
    expect(result.cancelled).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it("kills what is left of the group when the leader exits normally", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "gc.pid");
    const grandchild = script(dir, "gc.cjs", `setInterval(() => {}, 1000);`);
    const child = script(
      dir,
      "leader.cjs",
      `const g = require("node:child_process").spawn(process.execPath, [${JSON.stringify(grandchild)}], { stdio: "inherit" });
       require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, String(g.pid));
       g.unref(); console.log("bye"); process.exit(0);`,
    );
    const result = await runAgentProcess({
      command: process.execPath,
      args: [child],
      cwd: dir,
      env,
      stdin: "",
      timeoutMs: 10_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("bye");
    expect(result.durationMs).toBeLessThan(5000); // the grandchild held stdout open: it was killed, not waited for
    const pid = Number(readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(pid), 2000);
  });

  it("caps each stream, keeping its tail, and reports truncated", async () => {
    const dir = tempDir();
    const noisy = script(
      dir,
      "noisy.cjs",
      `process.stdout.write("HEAD" + "x".repeat(100000) + "TAIL"); process.stderr.write("e".repeat(50));`,
    );
    const result = await runAgentProcess({
      command: process.execPath,
      args: [noisy],
      cwd: dir,
      env,
      stdin: "",
      timeoutMs: 10_000,
      maxOutputBytes: 1000,
    });
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBe(1000);
    expect(result.stdout.endsWith("TAIL")).toBe(true);
    expect(result.stdout.startsWith("HEAD")).toBe(false);
    expect(result.stderr).toBe("e".repeat(50));
  });

  it("closes stdin even when the prompt is empty (a reader of stdin finishes)", async () => {
    const dir = tempDir();
    const reader = script(
      dir,
      "reader.cjs",
      `let n = 0; process.stdin.on("data", (d) => (n += d.length)); process.stdin.on("end", () => console.log("eof " + n));`,
    );
    const result = await runAgentProcess({
      command: process.execPath,
      args: [reader],
      cwd: dir,
      env,
      stdin: "",
      timeoutMs: 3000,
    });
    expect(result.timedOut).toBe(false);
    expect(result.stdout.trim()).toBe("eof 0");
  });

  it("survives a child that never reads its stdin", async () => {
    const dir = tempDir();
    const quick = script(dir, "quick.cjs", `process.exit(0);`);
    const result = await runAgentProcess({
      command: process.execPath,
      args: [quick],
      cwd: dir,
      env,
      stdin: "x".repeat(4 * 1024 * 1024),
      timeoutMs: 10_000,
    });
    expect(result.exitCode).toBe(0);
  });

  it("rejects with AgentError spawn when the binary is missing or not executable", async () => {
    const dir = tempDir();
    const missing = runAgentProcess({
      command: join(dir, "no-such-cli"),
      args: [],
      cwd: dir,
      env,
      stdin: "",
      timeoutMs: 1000,
    });
    await expect(missing).rejects.toBeInstanceOf(AgentError);
    await expect(missing).rejects.toMatchObject({ kind: "spawn", message: expect.stringContaining("ENOENT") });
    const notExec = script(dir, "plain.txt", "hi");
    await expect(
      runAgentProcess({ command: notExec, args: [], cwd: dir, env, stdin: "", timeoutMs: 1000 }),
    ).rejects.toMatchObject({
      kind: "spawn",
      message: expect.stringContaining("EACCES"),
    });
  });
});
