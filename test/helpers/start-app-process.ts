import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface AppProcess {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<number | null>;
}

/**
 * Starts the app the way `npm start` does, with only the given environment (plus PATH and HOME).
 * `cwd` runs it from another directory (its `.env`, and the `.env` Probot's setup flow writes).
 */
export function startAppProcess(env: Record<string, string>, options: { cwd?: string } = {}): AppProcess {
  const args = options.cwd
    ? ["--import", pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href, join(ROOT, "src/index.ts")]
    : ["--import", "tsx", "src/index.ts"];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...(options.cwd ? { TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json") } : {}), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return appProcess(child);
}

/** A started app process: its combined output collected, and a stop that sends SIGTERM and waits for the exit code. */
export function appProcess(child: ChildProcess): AppProcess {
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      return code;
    },
  };
}

/** Polls a URL until it answers (any status) or the process dies / time runs out. */
export async function waitForHttp(url: string, app: AppProcess, timeoutMs = 120_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`app exited with ${app.child.exitCode}:\n${app.output()}`);
    try {
      return await fetch(url);
    } catch {
      await sleep(100); // not listening yet
    }
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms:\n${app.output()}`);
}
