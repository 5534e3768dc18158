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
export function startAppProcess(
  env: Record<string, string>,
  options: { cwd?: string; launcher?: "npm" } = {},
): AppProcess {
  if (options.launcher === "npm") return startWithNpm(env);
  const args = options.cwd
    ? [
        "--import",
        pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href,
        join(ROOT, "src/index.ts"),
      ]
    : ["--import", "tsx", "src/index.ts"];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      ...(options.cwd ? { TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json") } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return appProcess(child);
}

/**
 * Starts the app with `npm start` itself (npm → tsx's CLI → the app), in a process group of its own as a
 * terminal gives it: `-child.pid` is the group to signal, as Ctrl-C or `kill -- -PGID` does.
 */
function startWithNpm(env: Record<string, string>): AppProcess {
  const child = spawn("npm", ["start", "--silent"], {
    cwd: ROOT,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
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
      // gone already: by its own exit (its code) or by a signal (null; waiting for "exit" again would hang)
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      child.kill("SIGTERM");
      const [code, signal] = await exited;
      if (code === null) output += `\n[the test saw the process end by ${signal ?? "a signal"}]\n`;
      return code;
    },
  };
}

/**
 * The port the app logged it is listening on (start it with PORT=0 to let the system pick a free one,
 * so that test files running side by side never race for a port).
 */
export async function listeningPort(app: AppProcess, timeoutMs = 120_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = app
      .output()
      .split("\n")
      .find((l) => /"msg":"no-mistakes \S+ listening/.test(l));
    if (line) return (JSON.parse(line) as { port: number }).port;
    if (app.child.exitCode !== null) throw new Error(`app exited with ${app.child.exitCode}:\n${app.output()}`);
    await sleep(50);
  }
  throw new Error(`the app did not say it was listening within ${timeoutMs} ms:\n${app.output()}`);
}

/**
 * Waits until this app says it is listening (so the answer cannot come from another process that took the
 * port), then fetches the URL.
 */
export async function waitForHttp(url: string, app: AppProcess, timeoutMs = 120_000): Promise<Response> {
  await listeningPort(app, timeoutMs);
  return fetch(url);
}
