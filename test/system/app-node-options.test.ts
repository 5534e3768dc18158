import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { APP_NODE_OPTIONS } from "../../src/system/app-node-options.js";
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
    expect(scripts.start!.split(" ")).toEqual(["tsx", ...APP_NODE_OPTIONS, "src/index.ts"]);
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

  it("tsx hands the options to the node process that runs the app (npm start)", () => {
    const script = join(tempDir("node-options"), "print-exec-argv.ts");
    writeFileSync(script, "process.stdout.write(JSON.stringify(process.execArgv));\n");
    const printed = execFileSync(join(ROOT, "node_modules/.bin/tsx"), [...APP_NODE_OPTIONS, script], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(JSON.parse(printed)).toEqual(expect.arrayContaining([...APP_NODE_OPTIONS]));
  });
});
