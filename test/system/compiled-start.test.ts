import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { APP_NODE_OPTIONS } from "../../src/system/app-node-options.js";
import { descendants } from "../helpers/descendants.js";
import { listeningPort, startAppProcess, type AppProcess } from "../helpers/start-app-process.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const running: AppProcess[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) {
    process.kill(-app.child.pid!, "SIGTERM");
    await app.stop();
  }
});
afterAll(() => removeTempDirs());

const compile = () =>
  execFileSync(process.execPath, [join(ROOT, "scripts/compile-src.mjs")], { cwd: ROOT, encoding: "utf8" }).trim();

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

describe("npm start runs compiled JavaScript", { timeout: 180_000 }, () => {
  it("compiles src/ beside it, every module and asset at its relative path, once per version of the sources", () => {
    const out = compile();
    expect(dirname(out)).toBe(ROOT.replace(/\/$/, "")); // lookups relative to a module resolve as from src/
    expect(basename(out)).toMatch(/^\.start-[0-9a-f]{12}$/);
    for (const file of [
      "index.js",
      "wiring/worker-process.js",
      "db/embedded/pglite-server-process.mjs",
      "db/embedded/one-client-at-a-time.mjs",
      "system/launcher-process.mjs",
      "agents/sandbox/model-bridge.mjs",
    ])
      expect(existsSync(join(out, file)), file).toBe(true);
    const built = statSync(join(out, "index.js")).mtimeMs;
    expect(compile()).toBe(out); // unchanged sources: the same build, not made again
    expect(statSync(join(out, "index.js")).mtimeMs).toBe(built);
  });

  it("keeps no TypeScript loader or esbuild process resident: npm, the app with its Node options, the database", async () => {
    const app = startAppProcess(
      { PORT: "0", DATA_DIR: join(tempDir(), "data"), LOG_LEVEL: "info" },
      { launcher: "npm" },
    );
    running.push(app);
    await listeningPort(app);
    const tree = descendants(app.child.pid!).map((pid) => ({ pid, command: commandLine(pid) }));
    expect(tree.filter((p) => /tsx|esbuild/.test(p.command))).toEqual([]);
    const main = tree.find((p) => /^\S*node\s/.test(p.command) && p.command.includes("scripts/start.mjs")); // not npm's sh -c
    expect(main?.command.split(" ").slice(1, 1 + APP_NODE_OPTIONS.length)).toEqual([...APP_NODE_OPTIONS]);
    expect(tree.some((p) => p.command.includes("pglite-server-process.mjs"))).toBe(true);
    const pid = (
      JSON.parse(
        app
          .output()
          .split("\n")
          .find((l) => l.includes('"mode":"setup"'))!,
      ) as { pid: number }
    ).pid;
    expect(pid).toBe(main?.pid); // the process that answers is the one npm's script started, not a child of it
  });
});
