import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { APP_NODE_OPTIONS, WORKER_NODE_OPTIONS, workerExecArgv } from "../../src/system/app-node-options.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> })
  .scripts;

/** The image's CMD, as the exec-form JSON array Docker reads. */
function dockerCmd(): string[] {
  const line = readFileSync(join(ROOT, "Dockerfile"), "utf8")
    .split("\n")
    .find((l) => /^CMD\s+\[/.test(l));
  if (!line) throw new Error("the Dockerfile has no exec-form CMD");
  return JSON.parse(line.replace(/^CMD\s+/, "")) as string[];
}

describe("every start of the app passes APP_NODE_OPTIONS", () => {
  it("npm start, npm run start:prod and the image's CMD carry exactly the list, before the entry point", () => {
    expect(APP_NODE_OPTIONS.length).toBeGreaterThan(0);
    expect(scripts.start!.split(" ")).toEqual(["node", ...APP_NODE_OPTIONS, "scripts/start.mjs"]);
    expect(scripts["start:prod"]!.split(" ")).toEqual(["node", ...APP_NODE_OPTIONS, "dist/index.js"]);
    expect(dockerCmd()).toEqual(["node", ...APP_NODE_OPTIONS, "dist/index.js"]);
  });

  it("this Node accepts the options (a misspelt or dropped one stops node with 'bad option')", () => {
    const run = spawnSync(
      process.execPath,
      [...APP_NODE_OPTIONS, "-e", "process.stdout.write(String(process.execArgv))"],
      {
        encoding: "utf8",
      },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.startsWith(APP_NODE_OPTIONS.join(","))).toBe(true);
    // The control: a flag this Node does not know is refused, so the check above can fail.
    const bad = spawnSync(process.execPath, ["--no-parallel-scavengee", "-e", "0"], { encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/bad option/);
  });

  it("the worker process gets the worker's options in their place, and keeps every other option (loaders, preloads)", () => {
    const parent = ["--import", "tsx", ...APP_NODE_OPTIONS, "--max-old-space-size=512"];
    expect(workerExecArgv(parent)).toEqual(["--import", "tsx", "--max-old-space-size=512", ...WORKER_NODE_OPTIONS]);
    // This Node accepts them.
    const run = spawnSync(process.execPath, [...workerExecArgv(APP_NODE_OPTIONS), "-e", "0"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("the worker process is started with them (a real ROLE=all fork, read back from its command line)", async () => {
    const dir = tempDir("worker-options");
    const script = join(dir, "fork-worker.mjs");
    const child = join(dir, "print-exec-argv.mjs");
    writeFileSync(child, "process.send(process.execArgv);\n");
    // The same fork start-worker-process.ts makes, from a parent started with APP_NODE_OPTIONS.
    writeFileSync(
      script,
      [
        `import { fork } from "node:child_process";`,
        `const { workerExecArgv } = await import(${JSON.stringify(join(ROOT, "src/system/app-node-options.ts"))});`,
        `const child = fork(${JSON.stringify(child)}, [], { execArgv: workerExecArgv(process.execArgv) });`,
        `child.once("message", (argv) => { process.stdout.write(JSON.stringify(argv)); child.kill(); });`,
      ].join("\n"),
    );
    const printed = execFileSync(process.execPath, ["--import", "tsx", ...APP_NODE_OPTIONS, script], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const argv = JSON.parse(printed) as string[];
    expect(argv).toEqual(expect.arrayContaining([...WORKER_NODE_OPTIONS]));
    for (const option of APP_NODE_OPTIONS) expect(argv).not.toContain(option);
  });
});
