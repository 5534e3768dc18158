import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isProcessAlive } from "../../src/system/process-identity.js";
import { ProcessLauncher } from "../../src/system/process-launcher.js";
import { BACKGROUND_NICENESS } from "../../src/system/run-in-background.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const launchers: ProcessLauncher[] = [];
afterAll(() => {
  for (const l of launchers) l.stop();
  removeTempDirs();
});

function launcher(): ProcessLauncher {
  const l = new ProcessLauncher();
  launchers.push(l);
  return l;
}

// a zombie counts as gone: in a container, nobody may reap it
const alive = (pid: number) => isProcessAlive({ pid, started: "" });

/** A Node process running `script` with ProcessLauncher imported; what it prints is read by `out()`. */
function nodeWithLauncher(script: string): { child: ReturnType<typeof spawn>; out: () => string } {
  const module = new URL("../../src/system/process-launcher.ts", import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "-e", `import { ProcessLauncher } from ${JSON.stringify(module)};\n${script}`],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  return { child, out: () => out };
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const run = (l: ProcessLauncher, file: string, args: string[], more: { input?: string; timeoutMs?: number } = {}) =>
  l.run({ file, args, cwd: process.cwd(), env: { PATH: process.env.PATH }, timeoutMs: 10_000, ...more });

describe("ProcessLauncher", () => {
  it("runs a command in its helper process, not in this one, with stdin, stdout, stderr and the exit code", async () => {
    const l = launcher();
    const result = await run(l, "sh", ["-c", 'cat; echo "parent=$PPID" >&2; exit 3'], { input: "hello" });
    expect(result.stdout.toString()).toBe("hello");
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    // the command's parent is the helper: the fork happened there
    const parent = Number(/parent=(\d+)/.exec(result.stderr.toString())![1]);
    expect(parent).toBe(l.pid);
    expect(parent).not.toBe(process.pid);
    // git's work waits for the webhooks' thread on a busy machine, not the other way round
    expect(getPriority(l.pid!)).toBe(BACKGROUND_NICENESS);
  });

  it("carries binary output unchanged and runs commands side by side", async () => {
    const l = launcher();
    const [a, b] = await Promise.all([
      run(l, "sh", ["-c", "head -c 300000 /dev/zero | tr '\\0' 'a'"]),
      run(l, "printf", ["\\001\\377\\000"]),
    ]);
    expect(a.stdout.length).toBe(300_000);
    expect([...b.stdout]).toEqual([1, 255, 0]);
  });

  it("kills the command's whole process group past its time limit", async () => {
    const l = launcher();
    const dir = tempDir();
    const pidFile = join(dir, "grandchild");
    const result = await run(l, "sh", ["-c", `sleep 30 & echo $! > ${pidFile}; wait`], { timeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(await until(() => !alive(Number(readFileSync(pidFile, "utf8"))), 5000)).toBe(true);
  });

  it("says so when a command cannot start", async () => {
    const result = await run(launcher(), "/nonexistent/command", []);
    expect(result.startError).toMatch(/ENOENT/);
  });

  it("answers the commands it was running when its helper dies, and starts a new helper for the next", async () => {
    const l = launcher();
    const pending = run(l, "sleep", ["30"]);
    await until(() => l.pid !== undefined, 5000);
    const first = l.pid!;
    process.kill(first, "SIGKILL");
    const lost = await pending;
    expect(lost.startError).toMatch(/exited/);
    const next = await run(l, "echo", ["again"]);
    expect(next.stdout.toString()).toBe("again\n");
    expect(l.pid).not.toBe(first);
  });

  it("lets its process exit when idle, and dies with it, taking a running command along", async () => {
    const dir = tempDir();
    // 1. idle: the process ends on its own after its command
    const idle = nodeWithLauncher(
      `const r = await new ProcessLauncher().run({ file: "echo", args: ["x"], cwd: "/", env: {}, timeoutMs: 5000 });
        console.log(r.stdout.toString().trim());`,
    );
    const code = await new Promise((r) => idle.child.once("exit", r));
    expect(code).toBe(0);
    expect(idle.out().trim()).toBe("x");

    // 2. killed while its command runs: the helper and the command go too
    const pidFile = join(dir, "sleeper");
    const busy = nodeWithLauncher(
      `const l = new ProcessLauncher();
        void l.run({ file: "sh", args: ["-c", "echo $$ > ${pidFile}; exec sleep 60"], cwd: "/", env: { PATH: process.env.PATH }, timeoutMs: 60000 });
        setInterval(() => { if (l.pid) console.log("launcher " + l.pid); }, 100);`,
    );
    expect(await until(() => /launcher \d+/.test(busy.out()) && existsSync(pidFile), 15_000)).toBe(true);
    const helper = Number(/launcher (\d+)/.exec(busy.out())![1]);
    const sleeper = Number(readFileSync(pidFile, "utf8"));
    expect(alive(helper) && alive(sleeper)).toBe(true);
    busy.child.kill("SIGKILL");
    expect(await until(() => !alive(helper) && !alive(sleeper), 10_000)).toBe(true);
  });
});
